declare global {
  namespace App {
    interface Locals {
      /** The request's locale (hooks.server.ts). */
      locale: string
    }
  }
}

export {}
