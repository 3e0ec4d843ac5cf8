/** The Next.js integration: `import { withTms } from 'unplugin-tms/next'` in next.config (src/next/index.ts). */
export { type NextConfigFunction, type NextConfigInput, type NextConfigObject, withTms } from './next/index'
