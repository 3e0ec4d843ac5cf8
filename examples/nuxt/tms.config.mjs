// The options the plugin and the tms CLI share: `npx tms push`, `npx tms pull` and the other commands
// run in this folder read this file, and nuxt.config.ts passes it to the plugin. projectId, baseUrl and
// the credentials come from TMS_PROJECT_ID, TMS_BASE_URL, TMS_USER_IDENTIFIER and TMS_USER_SECRET.
/** @type {import('unplugin-tms').Options} */
export default {
  locales: ['fr-FR', 'de-DE', 'ja-JP'],
  pseudo: ['ar-XB'],
  include: ['app/**/*.{ts,vue}'],
  job: { name: 'nuxt example', authorize: true },
}
