/** What the pre-test step finds. */
export interface TestTools {
  chromium: { path: string; present: boolean; chosen: boolean }
  redis: boolean
  aptGet: boolean
}

export type ProvisionPlan =
  | { kind: 'ready' }
  | { kind: 'install'; packages: string[] }
  | { kind: 'stop'; line: string }

export declare const onPath: (name: string, path?: string) => boolean
export declare const findTestTools: (options: {
  env: Readonly<Record<string, string | undefined>>
  chromiumPath?: string
}) => TestTools
export declare const planProvision: (facts: { tools: TestTools; root: boolean }) => ProvisionPlan
export declare const provisionTestTools: (options?: {
  env?: Readonly<Record<string, string | undefined>>
  root?: boolean
  chromiumPath?: string
  policyPath?: string
  log?: (line: string) => void
  stdio?: 'inherit' | 'ignore' | 'pipe'
}) => 0 | 1
