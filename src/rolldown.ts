import { unplugin } from './index'

/** The rolldown plugin: `import tms from 'unplugin-tms/rolldown'`. */
const plugin: typeof unplugin.rolldown = unplugin.rolldown
export default plugin
