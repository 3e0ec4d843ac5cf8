import type { IncomingMessage, ServerResponse } from 'node:http'

export declare const RETAINED_ROUTE: string
export declare function answerRetained(req: IncomingMessage, res: ServerResponse): void
export declare function retainedMemoryPlugin(): { name: string; configureServer(server: unknown): void }
