/**
 * Public options of the plugin and the CLI. Filled in by the sync-engine issue; the shape here is the
 * one DESIGN.md fixes.
 */
export interface Options {
  /** The TMS project. @default process.env.TMS_PROJECT_ID */
  projectId?: string
  /** The API root. @default process.env.TMS_BASE_URL */
  baseUrl?: string
  /** Target locales. */
  locales?: string[]
}
