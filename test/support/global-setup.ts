import { ensureBuild } from '../../scripts/ensure-build.mjs'

/** Tests that run the built package (the CLI bundle, test/modules/) need a fresh dist/. */
export default function setup(): void {
  ensureBuild()
}
