/**
 * Worker-thread entry of the extractor (built to dist/extract-worker.mjs). It asks for a batch of
 * files, reads and extracts them, posts the results back, and asks again until told to stop.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { extractFileFromDisk } from './file'
import type { ResolvedExtractOptions } from './options'
import { encodeFile } from './payload'
import { extractBatchRun, type MessagesWorkerData, type WorkerReply, type WorkerRequest } from './pool'

const port = parentPort
if (port !== null && (workerData as MessagesWorkerData).mode === 'messages') {
  // A messages-only run: claim batches from the back until reaching one the calling thread took
  // (everything before it is taken then), posting each batch's merged run.
  const { options, files, claims, worker } = workerData as MessagesWorkerData
  for (let b = claims.length - 1; b >= 0 && Atomics.load(claims, b) !== 1; b--) {
    if (Atomics.compareExchange(claims, b, 0, 2 + worker) !== 0) continue
    port.postMessage({ type: 'run', batch: b, run: extractBatchRun(files, b, options) } satisfies WorkerReply)
  }
  port.close()
} else if (port !== null) {
  const options = (workerData as { options: ResolvedExtractOptions }).options
  port.on('message', (request: WorkerRequest) => {
    if (request.type === 'stop') {
      port.close()
      return
    }
    // Results travel as their compact cache encoding: one string per file clones far faster than
    // the object graph, and the disk cache can store it as is.
    const reply: WorkerReply = {
      type: 'results',
      items: request.files.map((file) => {
        const { result, outcome } = extractFileFromDisk(file, options)
        return { file, hash: result.hash, payload: encodeFile(result), outcome }
      }),
    }
    port.postMessage(reply)
  })
  port.postMessage({ type: 'ready' } satisfies WorkerReply)
}
