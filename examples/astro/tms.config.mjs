// The options the plugin and the tms CLI share: `npx tms status`, `npx tms issues` and the other
// commands run in this folder read this file (the CLI never reads a bundler's config), and the build
// passes it to the plugin. projectId, baseUrl and the credentials come from TMS_PROJECT_ID,
// TMS_BASE_URL, TMS_USER_IDENTIFIER and TMS_USER_SECRET.
/** @type {import('unplugin-tms').Options} */
export default {
  locales: ['fr-FR', 'de-DE', 'ja-JP'],
  pseudo: ['ar-XB'],
  // .astro files are not in the default include: their frontmatter and template hold messages here,
  // the React islands (.tsx) theirs.
  include: ['src/**/*.{ts,tsx,astro}'],
  job: { name: 'astro example', authorize: true },
}
