import { createUnplugin, type UnpluginFactory, type UnpluginInstance } from 'unplugin'
import type { Options } from './options'

export type { Options } from './options'

export const unpluginFactory: UnpluginFactory<Options | undefined> = () => ({
  name: 'unplugin-tms',
})

export const unplugin: UnpluginInstance<Options | undefined, boolean> =
  /* #__PURE__ */ createUnplugin(unpluginFactory)

export default unplugin
