import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isoDate } from '../clock'
import type { EmulatorContext } from '../context'
import { requireProject } from '../http/auth'
import { ApiError, notFoundError, sendData, validationError } from '../http/envelope'
import {
  bodyObject,
  optionalBoolean,
  optionalString,
  optionalStringArray,
  type ProjectParams,
  type Query,
  queryArray,
  queryBoolean,
  queryInt,
  queryString,
  requiredString,
} from '../http/params'
import type { ProjectRecord, UserRecord } from '../store'
import { userUid } from '../store/ids'
import { jobFileSource } from '../store/job-files'
import { progressReport, workflowUid } from '../store/job-progress'
import {
  type CountResult,
  JOB_STATUSES,
  type JobEvent,
  type JobRecord,
  type JobStatus,
} from '../store/job-records'
import { JobStore } from '../store/jobs'
import { likeMatcher } from '../store/matching'
import {
  describeJob,
  type JobParams,
  jobOrder,
  MAX_FILES_PER_JOB,
  MAX_HASHCODES_PER_ADD,
  MAX_JOB_UIDS_FILTER,
  MAX_PAGE,
  projectLocales,
  readHashcodes,
  readJobFields,
  summarize,
} from './jobs-read'
import { countWords } from './strings'

/**
 * `jobs-api/v3`: jobs, their content, files, locales, state changes, progress and processes. Long because each
 * route is a few lines over the same store part and context; the routes of one API area read best together.
 */
export function registerJobRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const files = jobFileSource(ctx.store)
  const jobs: JobStore = ctx.store.register(
    new JobStore({
      strings: ctx.store.strings,
      now: () => ctx.now(),
      onChange: () => ctx.persistence?.schedule(),
      notify: (job, event, extra) => sendJobCallback(ctx, job, event, extra),
    }),
  )
  ctx.store.events.on('translationPublished', ({ projectId, hashcode, localeId }) => {
    jobs.onPublished(projectId, hashcode, localeId)
  })

  const P = '/jobs-api/v3/projects/:projectId'
  const J = `${P}/jobs/:translationJobUid`

  const jobOf = (
    request: FastifyRequest,
    params: JobParams,
  ): { user: UserRecord; project: ProjectRecord; job: JobRecord } => {
    const { user, project } = requireProject(ctx, request, params.projectId)
    const job = jobs.get(params.projectId, params.translationJobUid)
    if (!job) throw notFoundError(`Job ${params.translationJobUid} not found`, 'job_not_found')
    return { user, project, job }
  }

  /** Files of a job: those added with file/add, then the other files its strings came from. */
  const jobFiles = (job: JobRecord): string[] => {
    const holding = files.filesHolding(job.projectId, new Set(jobs.hashcodes(job)))
    return [...new Set([...job.fileUris, ...holding])]
  }

  /** The job's strings that come from one of its files; 404 when the file is not in the job. */
  const fileContent = (job: JobRecord, fileUri: string): string[] => {
    if (!jobFiles(job).includes(fileUri)) {
      throw notFoundError(`File ${fileUri} is not in job ${job.translationJobUid}`, 'file_not_found')
    }
    const ofFile = new Set(files.hashcodes(job.projectId, fileUri) ?? [])
    return jobs.hashcodes(job).filter((h) => ofFile.has(h))
  }

  /**
   * Runs a job operation now, or, past the configured size, answers 202 with the process URL and
   * applies it after `jobProcessMs`. Requests are validated before either path; the background
   * run fails the process if the job changed meanwhile so that the operation no longer applies.
   */
  const operate = (
    request: FastifyRequest,
    reply: FastifyReply,
    job: JobRecord,
    size: number,
    apply: () => CountResult | null,
  ): FastifyReply => {
    if (size <= ctx.config.jobSyncMaxHashcodes) return sendData(reply, apply())
    const process = jobs.openProcess(job)
    ctx.timers.after(ctx.config.jobProcessMs, () => {
      let ok = !ctx.faults.shouldFailProcess()
      if (ok) {
        try {
          apply()
        } catch (error) {
          ok = false
          ctx.log(`job process ${process.processUid} failed: ${(error as Error).message}`)
        }
      }
      jobs.finishProcess(process, ok ? 'COMPLETED' : 'FAILED')
    })
    const path = `/jobs-api/v3/projects/${encodeURIComponent(job.projectId)}/jobs/${job.translationJobUid}/processes/${process.processUid}`
    const url = `${request.protocol}://${request.headers.host ?? request.hostname}${path}`
    return sendData(
      reply,
      { message: `The operation continues in the background; follow its process at ${url}`, url },
      'ACCEPTED',
    )
  }

  app.get<{ Params: ProjectParams }>(`${P}/jobs`, async (request, reply) => {
    const { projectId } = request.params
    requireProject(ctx, request, projectId)
    const query = request.query as Query
    const uids = queryArray(query, 'translationJobUids')
    if (uids.length > MAX_JOB_UIDS_FILTER) {
      throw validationError('translationJobUids', `has ${uids.length} items; at most ${MAX_JOB_UIDS_FILTER}`)
    }
    const statuses = queryArray(query, 'translationJobStatus')
    statuses.forEach((s, i) => {
      if (!JOB_STATUSES.includes(s as JobStatus)) {
        throw validationError(
          `translationJobStatus[${i}]`,
          `must be one of ${JOB_STATUSES.join(', ')}; got ${s}`,
        )
      }
    })
    const name = queryString(query, 'jobName')
    const nameMatches = name ? likeMatcher(name) : () => true
    const order = jobOrder(query)
    const limit = queryInt(query, 'limit', { min: 1, max: MAX_PAGE, fallback: MAX_PAGE })
    const offset = queryInt(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 })
    const wantedUids = new Set(uids)
    const found = jobs
      .list(projectId)
      .filter(
        (j) =>
          nameMatches(j.jobName) &&
          (wantedUids.size === 0 || wantedUids.has(j.translationJobUid)) &&
          (statuses.length === 0 || statuses.includes(j.jobStatus)),
      )
      .sort(order)
    return sendData(reply, {
      totalCount: found.length,
      items: found.slice(offset, offset + limit).map(summarize),
    })
  })

  app.post<{ Params: ProjectParams }>(`${P}/jobs`, async (request, reply) => {
    const { user, project } = requireProject(ctx, request, request.params.projectId)
    const fields = readJobFields(bodyObject(request.body), project)
    return sendData(reply, describeJob(jobs.create(project.projectId, fields, userUid(user.userIdentifier))))
  })

  app.post<{ Params: ProjectParams }>(`${P}/jobs/search`, async (request, reply) => {
    const { projectId } = request.params
    requireProject(ctx, request, projectId)
    const body = bodyObject(request.body, true)
    const hashcodes = new Set(optionalStringArray(body, 'hashcodes') ?? [])
    const fileUris = new Set(optionalStringArray(body, 'fileUris') ?? [])
    const uids = new Set(optionalStringArray(body, 'translationJobUids') ?? [])
    const found = jobs
      .list(projectId)
      .filter(
        (j) =>
          uids.has(j.translationJobUid) ||
          (hashcodes.size > 0 && jobs.hashcodes(j).some((h) => hashcodes.has(h))) ||
          (fileUris.size > 0 && jobFiles(j).some((f) => fileUris.has(f))),
      )
    return sendData(reply, { totalCount: found.length, items: found.map(summarize) })
  })

  app.get<{ Params: JobParams }>(J, async (request, reply) => {
    return sendData(reply, describeJob(jobOf(request, request.params).job))
  })

  app.get<{ Params: JobParams }>(`${P}/job/:translationJobUid/files`, async (request, reply) => {
    const { job } = jobOf(request, request.params)
    const query = request.query as Query
    const limit = queryInt(query, 'limit', { min: 1, max: MAX_PAGE, fallback: MAX_PAGE })
    const offset = queryInt(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 })
    const uris = jobFiles(job)
    return sendData(reply, {
      totalCount: uris.length,
      items: uris.slice(offset, offset + limit).map((uri) => ({ uri })),
    })
  })

  app.get<{ Params: JobParams }>(`${J}/file/progress`, async (request, reply) => {
    const { job } = jobOf(request, request.params)
    const fileUri = queryString(request.query as Query, 'fileUri')
    if (!fileUri) throw validationError('fileUri', 'is required')
    const ofFile = new Set(fileContent(job, fileUri))
    return sendData(reply, progressReport(job, ctx.store.strings, countWords, job.targetLocaleIds, ofFile))
  })

  app.get<{ Params: JobParams }>(`${J}/progress`, async (request, reply) => {
    const { job } = jobOf(request, request.params)
    const localeId = queryString(request.query as Query, 'targetLocaleId')
    if (localeId && !job.targetLocaleIds.includes(localeId)) {
      throw validationError('targetLocaleId', `${localeId} is not a locale of job ${job.translationJobUid}`)
    }
    const locales = localeId ? [localeId] : job.targetLocaleIds
    return sendData(reply, progressReport(job, ctx.store.strings, countWords, locales))
  })

  app.post<{ Params: JobParams }>(`${J}/strings/add`, async (request, reply) => {
    const { user, project, job } = jobOf(request, request.params)
    const body = bodyObject(request.body)
    const hashcodes = readHashcodes(body, MAX_HASHCODES_PER_ADD)
    hashcodes.forEach((h, i) => {
      if (!ctx.store.strings.get(project.projectId, h)) {
        throw validationError(`hashcodes[${i}]`, `unknown hashcode ${h} in project ${project.projectId}`)
      }
    })
    const given = optionalStringArray(body, 'targetLocaleIds')
    const locales = given ? projectLocales(project, given, 'targetLocaleIds') : [...job.targetLocaleIds]
    if (locales.length === 0) {
      throw validationError('targetLocaleIds', `job ${job.translationJobUid} has no locales; name them here`)
    }
    const moveEnabled = optionalBoolean(body, 'moveEnabled') ?? false
    jobs.requireOpen(job, 'adding content')
    const by = userUid(user.userIdentifier)
    return operate(request, reply, job, hashcodes.length, () =>
      jobs.addContent(job, hashcodes, locales, moveEnabled, by),
    )
  })

  app.post<{ Params: JobParams }>(`${J}/strings/remove`, async (request, reply) => {
    const { user, job } = jobOf(request, request.params)
    const body = bodyObject(request.body)
    const hashcodes = readHashcodes(body, null)
    const localeIds = optionalStringArray(body, 'localeIds')
    localeIds?.forEach((l, i) => {
      if (!job.targetLocaleIds.includes(l)) {
        throw validationError(`localeIds[${i}]`, `${l} is not a locale of job ${job.translationJobUid}`)
      }
    })
    jobs.requireOpen(job, 'removing content')
    const by = userUid(user.userIdentifier)
    return operate(request, reply, job, hashcodes.length, () =>
      jobs.removeContent(job, hashcodes, localeIds, by),
    )
  })

  app.post<{ Params: JobParams }>(`${J}/file/add`, async (request, reply) => {
    const { user, project, job } = jobOf(request, request.params)
    const body = bodyObject(request.body)
    const fileUri = requiredString(body, 'fileUri')
    const hashcodes = files.hashcodes(project.projectId, fileUri)
    if (!hashcodes) {
      throw validationError(
        'fileUri',
        `file ${fileUri} not found in project ${project.projectId}`,
        'file_not_found',
      )
    }
    if (files.busy(project.projectId, fileUri, ctx.now())) {
      throw new ApiError('RESOURCE_LOCKED', [
        { key: 'file_locked', message: `File ${fileUri} is still being processed; retry when it is done` },
      ])
    }
    const given = optionalStringArray(body, 'targetLocaleIds')
    const locales = given ? projectLocales(project, given, 'targetLocaleIds') : [...job.targetLocaleIds]
    if (locales.length === 0) {
      throw validationError('targetLocaleIds', `job ${job.translationJobUid} has no locales; name them here`)
    }
    const current = jobFiles(job)
    if (!current.includes(fileUri) && current.length >= MAX_FILES_PER_JOB) {
      throw validationError(
        'fileUri',
        `job ${job.translationJobUid} already holds ${MAX_FILES_PER_JOB} files, the most a job may hold`,
      )
    }
    jobs.requireOpen(job, 'adding content')
    const by = userUid(user.userIdentifier)
    return operate(request, reply, job, hashcodes.length, () => {
      jobs.addFile(job, fileUri)
      return jobs.addContent(job, hashcodes, locales, false, by)
    })
  })

  app.post<{ Params: JobParams }>(`${J}/file/remove`, async (request, reply) => {
    const { user, job } = jobOf(request, request.params)
    const fileUri = requiredString(bodyObject(request.body), 'fileUri')
    const hashcodes = fileContent(job, fileUri)
    jobs.requireOpen(job, 'removing content')
    const by = userUid(user.userIdentifier)
    return operate(request, reply, job, hashcodes.length, () => {
      jobs.removeFile(job, fileUri)
      return hashcodes.length > 0
        ? jobs.removeContent(job, hashcodes, null, by)
        : { successCount: 0, failCount: 0 }
    })
  })

  app.post<{ Params: JobParams & { localeId: string } }>(`${J}/locales/:localeId`, async (request, reply) => {
    const { user, project, job } = jobOf(request, request.params)
    const { localeId } = request.params
    if (!project.targetLocaleIds.includes(localeId)) {
      throw validationError('localeId', `${localeId} is not a target locale of project ${project.projectId}`)
    }
    const syncContent = queryBoolean(request.query as Query, 'syncContent', true)
    jobs.requireOpen(job, 'adding a locale')
    const size = syncContent && !job.targetLocaleIds.includes(localeId) ? jobs.hashcodes(job).length : 0
    const by = userUid(user.userIdentifier)
    return operate(request, reply, job, size, () => {
      jobs.addLocale(job, localeId, syncContent, by)
      return null
    })
  })

  app.delete<{ Params: JobParams & { localeId: string } }>(
    `${J}/locales/:localeId`,
    async (request, reply) => {
      const { user, job } = jobOf(request, request.params)
      const { localeId } = request.params
      if (!job.targetLocaleIds.includes(localeId)) {
        throw validationError('localeId', `${localeId} is not a locale of job ${job.translationJobUid}`)
      }
      jobs.requireOpen(job, 'removing a locale')
      const by = userUid(user.userIdentifier)
      return operate(request, reply, job, job.content[localeId]?.length ?? 0, () => {
        jobs.removeLocale(job, localeId, by)
        return null
      })
    },
  )

  app.post<{ Params: JobParams }>(`${J}/close`, async (request, reply) => {
    const { user, job } = jobOf(request, request.params)
    jobs.close(job, userUid(user.userIdentifier))
    return sendData(reply, null)
  })

  app.post<{ Params: JobParams }>(`${J}/cancel`, async (request, reply) => {
    const { user, job } = jobOf(request, request.params)
    const reason = optionalString(bodyObject(request.body, true), 'reason')
    // The state is checked now, so a refused cancel is a 400 and not a failed process.
    jobs.requireCancellable(job)
    const by = userUid(user.userIdentifier)
    return operate(request, reply, job, jobs.hashcodes(job).length, () => {
      jobs.cancel(job, reason, by)
      return null
    })
  })

  app.post<{ Params: JobParams }>(`${J}/authorize`, async (request, reply) => {
    const { user, job } = jobOf(request, request.params)
    const body = bodyObject(request.body, true)
    if (body.localeWorkflows !== undefined && body.localeWorkflows !== null) {
      if (!Array.isArray(body.localeWorkflows)) throw validationError('localeWorkflows', 'must be an array')
      const workflow = workflowUid(job.projectId)
      body.localeWorkflows.forEach((raw, i) => {
        const at = `localeWorkflows[${i}]`
        if (typeof raw !== 'object' || raw === null) throw validationError(at, 'must be an object')
        const entry = raw as Record<string, unknown>
        const localeId = requiredString(entry, 'targetLocaleId', `${at}.targetLocaleId`)
        if (!job.targetLocaleIds.includes(localeId)) {
          throw validationError(
            `${at}.targetLocaleId`,
            `${localeId} is not a locale of job ${job.translationJobUid}`,
          )
        }
        const uid = requiredString(entry, 'workflowUid', `${at}.workflowUid`)
        if (uid !== workflow) {
          throw validationError(
            `${at}.workflowUid`,
            `unknown workflow ${uid}; this project's workflow is ${workflow}`,
          )
        }
      })
    }
    jobs.authorize(job, userUid(user.userIdentifier))
    return sendData(reply, null)
  })

  app.get<{ Params: JobParams & { processUid: string } }>(
    `${J}/processes/:processUid`,
    async (request, reply) => {
      const { job } = jobOf(request, request.params)
      const record = jobs.findProcess(job, request.params.processUid, ctx.config.processTtlMs)
      if (!record)
        throw notFoundError(`Process ${request.params.processUid} not found or expired`, 'process_not_found')
      return sendData(reply, {
        processUid: record.processUid,
        translationJobUid: record.translationJobUid,
        processState: record.processState,
        createdDate: isoDate(record.createdDate),
        modifiedDate: isoDate(record.modifiedDate),
      })
    },
  )
}

/** A job event to the job's callback URL: GET with query parameters (the default), or POST JSON. */
function sendJobCallback(
  ctx: EmulatorContext,
  job: JobRecord,
  event: JobEvent,
  extra: Record<string, string | number>,
): void {
  if (!job.callbackUrl) return
  const fields = { translationJobUid: job.translationJobUid, type: event, ...extra }
  if (job.callbackMethod === 'POST') {
    ctx.callbacks.send(event, 'POST', job.callbackUrl, fields)
    return
  }
  const url = new URL(job.callbackUrl)
  for (const [k, v] of Object.entries(fields)) url.searchParams.append(k, String(v))
  ctx.callbacks.send(event, 'GET', url.href, null)
}
