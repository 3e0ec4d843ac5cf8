// oxc-parser exports its raw napi binding as a subpath without type declarations. Its parseSync
// returns the AST as the JSON string that the package's own wrapper would JSON.parse.
declare module 'oxc-parser/src-js/bindings' {
  import type { EcmaScriptModule, OxcError, ParserOptions } from 'oxc-parser'
  export function parseSync(
    filename: string,
    sourceText: string,
    options?: ParserOptions | null,
  ): { readonly program: string; readonly module: EcmaScriptModule; readonly errors: OxcError[] }
}
