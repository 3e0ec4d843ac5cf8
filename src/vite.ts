import { unplugin } from './index'

/** The vite plugin: `import tms from 'unplugin-tms/vite'`. */
const plugin: typeof unplugin.vite = unplugin.vite
export default plugin
