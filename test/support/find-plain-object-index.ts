import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

/** One place where a plain object is indexed by a key that could be anything. */
export interface PlainObjectIndex {
  /** `src/…/file.ts:line` */
  at: string
  text: string
}

const isWideKey = (type: ts.Type): boolean =>
  type.isUnion()
    ? type.types.some(isWideKey)
    : (type.flags &
        (ts.TypeFlags.String |
          ts.TypeFlags.TemplateLiteral |
          ts.TypeFlags.StringMapping |
          ts.TypeFlags.Any |
          ts.TypeFlags.Unknown)) !==
      0

/**
 * Finds, with the TypeScript compiler's type checker, every `object[key]`
 * (read or write) and `key in object` where the object's type is a string
 * dictionary (a string index signature, as `Record<string, T>`, not an array)
 * and the key's type is any string (not a union of literals): the places where
 * a key such as `__proto__`, `constructor` or `toString` reaches the object's
 * prototype instead of its own entries. Also every `z.record(`, whose parse
 * drops a `__proto__` key. Map, Set and `Object.fromEntries` keep such keys.
 * A key that is the variable of a `for (const name in object)` loop is not
 * flagged: it is an own key of an existing record, copied or read back (the
 * hot path copies header records so; request data is copied into
 * `Object.create(null)`, which keeps even a `__proto__` key). Nor is a read
 * guarded by an own-key check, `Object.hasOwn(object, key) ? object[key] : …`.
 *
 * @example
 * expect(findPlainObjectIndex({ root: 'src' })).toEqual([])
 */
export const findPlainObjectIndex = (input: {
  /** The folder whose .ts/.tsx files are checked, or in-memory files for the checker's own test. */
  root?: string
  files?: Record<string, string>
}): PlainObjectIndex[] => {
  const cwd = process.cwd()
  const files: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path)
    }
  }
  if (input.root !== undefined) walk(join(cwd, input.root))
  const virtual = new Map(Object.entries(input.files ?? {}).map(([n, t]) => [join(cwd, n), t]))
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    jsx: ts.JsxEmit.ReactJSX,
    jsxImportSource: 'preact',
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    skipLibCheck: true,
    noEmit: true,
  }
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.readFile = (name) => virtual.get(name) ?? readFile(name)
  host.fileExists = (name) => virtual.has(name) || fileExists(name)
  host.getSourceFile = (name, language) => {
    const text = virtual.get(name)
    return text === undefined
      ? getSourceFile(name, language)
      : ts.createSourceFile(name, text, language, true)
  }
  const roots = [...files, ...virtual.keys()]
  const program = ts.createProgram(roots, options, host)
  const checker = program.getTypeChecker()
  const isDictionary = (type: ts.Type): boolean => {
    const apparent = checker.getApparentType(type)
    if (checker.isArrayType(apparent) || checker.isTupleType(apparent)) return false
    if (apparent.isUnion()) return apparent.types.some(isDictionary)
    return checker.getIndexInfoOfType(apparent, ts.IndexKind.String) !== undefined
  }
  const found: PlainObjectIndex[] = []
  const loopKeys = new Set<ts.Symbol>()
  /** `Object.hasOwn(o, k) ? o[k] : …` (the test may be one of `&&`'s operands): an own key only. */
  const isOwnKeyRead = (node: ts.ElementAccessExpression): boolean => {
    const parent = node.parent
    if (!ts.isConditionalExpression(parent) || parent.whenTrue !== node) return false
    const guards = (test: ts.Expression): boolean =>
      ts.isParenthesizedExpression(test)
        ? guards(test.expression)
        : ts.isBinaryExpression(test) &&
            test.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken
          ? guards(test.left) || guards(test.right)
          : ts.isCallExpression(test) &&
            test.expression.getText() === 'Object.hasOwn' &&
            test.arguments[0]?.getText() === node.expression.getText() &&
            test.arguments[1]?.getText() === node.argumentExpression.getText()
    return guards(parent.condition)
  }
  const isLoopKey = (node: ts.Expression): boolean => {
    if (!ts.isIdentifier(node)) return false
    const symbol = checker.getSymbolAtLocation(node)
    return symbol !== undefined && loopKeys.has(symbol)
  }
  for (const source of program.getSourceFiles()) {
    if (!roots.includes(source.fileName)) continue
    const report = (node: ts.Node): void => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart())
      found.push({
        at: `${relative(cwd, source.fileName)}:${line + 1}`,
        text: node.getText().slice(0, 120),
      })
    }
    const visit = (node: ts.Node): void => {
      if (ts.isForInStatement(node) && ts.isVariableDeclarationList(node.initializer)) {
        for (const declaration of node.initializer.declarations) {
          const symbol = checker.getSymbolAtLocation(declaration.name)
          if (symbol !== undefined) loopKeys.add(symbol)
        }
      }
      if (
        ts.isElementAccessExpression(node) &&
        !isLoopKey(node.argumentExpression) &&
        !isOwnKeyRead(node) &&
        isWideKey(checker.getTypeAtLocation(node.argumentExpression)) &&
        isDictionary(checker.getTypeAtLocation(node.expression))
      )
        report(node)
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.InKeyword &&
        isWideKey(checker.getTypeAtLocation(node.left))
      )
        report(node)
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'record' &&
        node.expression.expression.getText() === 'z'
      )
        report(node)
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}
