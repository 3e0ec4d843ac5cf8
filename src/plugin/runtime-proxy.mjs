// `unplugin-tms/runtime` in a vite production build (src/plugin/virtual-plugin.ts): the build's runtime
// module, re-exported. vite's own alias resolves each module's import of the specifier to this file,
// without a call of the plugin's resolveId per module.
export * from '\0tms/runtime.js'
