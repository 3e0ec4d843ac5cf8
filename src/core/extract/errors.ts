import { TmsConfigError } from '../model/options'

/**
 * A bad extraction option; `option` names it, and the message says how to fix it. A configuration
 * error like any other (`instanceof TmsConfigError`), under its own name for `extractMessages` callers.
 */
export class ExtractOptionsError extends TmsConfigError {
  override readonly name = 'ExtractOptionsError'
}
