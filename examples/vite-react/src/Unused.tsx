import { t } from 'unplugin-tms/runtime'

// Not imported by the app: its message is pushed (it is in the source) but never shipped in a catalog.
export const unused = () => t('This text is never bundled')
