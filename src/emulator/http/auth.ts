import type { FastifyRequest } from 'fastify'
import type { EmulatorContext } from '../context'
import type { ProjectRecord, UserRecord } from '../store'
import { ApiError, authenticationError, notFoundError } from './envelope'

/** The user behind the request's Bearer token, or 401 AUTHENTICATION_ERROR `invalid_token`. */
export function requireUser(ctx: EmulatorContext, request: FastifyRequest): UserRecord {
  const header = request.headers.authorization
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  if (!match) throw authenticationError('An Authorization header with a Bearer access token is required')
  const check = ctx.store.tokens.checkAccess(match[1]!, ctx.now())
  if (!check.ok) {
    throw authenticationError(
      check.reason === 'expired' ? 'The access token has expired' : 'The access token is not valid',
    )
  }
  const user = ctx.store.directory.users.get(check.userIdentifier)
  if (!user) throw authenticationError('The access token is not valid')
  return user
}

/** Whether the user may work in an account (seed users without `accountUids` may work anywhere). */
export function requireAccountAccess(user: UserRecord, accountUid: string): void {
  if (user.accountUids !== null && !user.accountUids.includes(accountUid)) {
    throw new ApiError('AUTHORIZATION_ERROR', [
      { key: 'forbidden', message: `This user has no access to account ${accountUid}` },
    ])
  }
}

/** The authenticated user and a project they may use; 404 for an unknown project. */
export function requireProject(
  ctx: EmulatorContext,
  request: FastifyRequest,
  projectId: string,
): { user: UserRecord; project: ProjectRecord } {
  const user = requireUser(ctx, request)
  const project = ctx.store.directory.projects.get(projectId)
  if (!project) throw notFoundError(`Project ${projectId} not found`, 'project_not_found')
  requireAccountAccess(user, project.accountUid)
  return { user, project }
}

/** The authenticated user and an account they may use; 404 for an unknown account. */
export function requireAccount(
  ctx: EmulatorContext,
  request: FastifyRequest,
  accountUid: string,
): UserRecord {
  const user = requireUser(ctx, request)
  if (!ctx.store.directory.accountUids.has(accountUid)) {
    throw notFoundError(`Account ${accountUid} not found`, 'account_not_found')
  }
  requireAccountAccess(user, accountUid)
  return user
}
