/**
 * What happens in the store that other parts react to (the auto-translator, callbacks, the jobs and
 * files areas), so that the part where it happens need not know who listens.
 */
export interface StoreEventMap {
  /** Newly authorized (hashcode, locale) pairs of one project. */
  stringsAuthorized: { projectId: string; pairs: { hashcode: string; localeId: string }[] }
  /** A translation was published for one locale of one string. */
  translationPublished: { projectId: string; hashcode: string; localeId: string }
}

type Listener<T> = (event: T) => void

/** A small typed event bus; listeners run synchronously, in order of subscription. */
export class StoreEvents {
  #listeners = new Map<keyof StoreEventMap, Listener<never>[]>()

  on<K extends keyof StoreEventMap>(name: K, listener: Listener<StoreEventMap[K]>): () => void {
    const list = (this.#listeners.get(name) ?? []) as Listener<StoreEventMap[K]>[]
    this.#listeners.set(name, list as Listener<never>[])
    list.push(listener)
    return () => {
      const at = list.indexOf(listener)
      if (at !== -1) list.splice(at, 1)
    }
  }

  emit<K extends keyof StoreEventMap>(name: K, event: StoreEventMap[K]): void {
    for (const listener of (this.#listeners.get(name) ?? []) as Listener<StoreEventMap[K]>[]) listener(event)
  }
}
