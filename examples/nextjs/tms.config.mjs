// The options the plugin and the tms CLI share (next.config.mjs passes none of its own). projectId,
// baseUrl and the credentials come from TMS_PROJECT_ID, TMS_BASE_URL, TMS_USER_IDENTIFIER and
// TMS_USER_SECRET.
/** @type {import('unplugin-tms').Options} */
export default {
  locales: ['fr-FR', 'de-DE', 'ja-JP'],
  pseudo: ['ar-XB'],
  include: ['app/**/*.{ts,tsx}'],
  job: { name: 'nextjs example', authorize: true },
}
