import type { ResolvedOptions } from '../model/options'

/**
 * Package names that project templates give every new app (`npm create vite` names it `vite-project`,
 * create-next-app's and Angular's docs `my-app`, ...). The namespace defaults to package.json's name
 * and is part of every string's identity on the service, so two unrelated apps that kept such a name
 * and share a service project would share their strings. Lower case, as npm requires of names.
 */
export const TEMPLATE_PACKAGE_NAMES: readonly string[] = [
  'vite-project',
  'vue-project',
  'my-vue-app',
  'my-react-app',
  'react-app',
  'my-app',
  'my-project',
  'app',
  'my-svelte-app',
  'svelte-app',
  'sveltekit-app',
  'nuxt-app',
  'my-webpack-project',
  'webpack-project',
  'rollup-app',
  'my-rspack-project',
  'rspack-project',
  'my-lit-app',
  'my-preact-app',
  'my-solid-app',
]

/** The warning for a namespace that is package.json's name and a template's default, else undefined. */
export function templateNamespaceWarning(
  options: Pick<ResolvedOptions, 'namespace' | 'namespaceFromPackage'>,
): string | undefined {
  const name = options.namespace
  if (!options.namespaceFromPackage || name === null || !TEMPLATE_PACKAGE_NAMES.includes(name))
    return undefined
  return (
    `the namespace is package.json's name "${name}", the default of a project template that many unrelated apps keep: ` +
    'apps with the same namespace in one service project share their strings. Rename the package, or set the ' +
    'namespace option (e.g. namespace: "shop-web")'
  )
}
