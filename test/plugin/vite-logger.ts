import { stripVTControlCharacters } from 'node:util'
import { createLogger, type Logger } from 'vite'

/**
 * A vite logger that prints nothing and keeps every line it was given as `<level> <text>`, without
 * colours (vite colours some when CI is set).
 */
export function recordingLogger(lines: string[]): Logger {
  const logger = createLogger('silent')
  const keep = (level: string) => (msg: string) =>
    void lines.push(`${level} ${stripVTControlCharacters(msg)}`)
  logger.info = keep('info')
  logger.warn = keep('warn')
  logger.warnOnce = keep('warn')
  logger.error = keep('error')
  return logger
}
