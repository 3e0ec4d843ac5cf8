import type { FastifyInstance } from 'fastify'
import type { EmulatorContext } from '../context'
import { authenticationError, sendData } from '../http/envelope'
import { bodyObject, requiredString } from '../http/params'

/** `auth-api/v2`: authenticate with an identifier and secret, refresh with a refresh token. */
export function registerAuthRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/auth-api/v2/authenticate', async (request, reply) => {
    const body = bodyObject(request.body)
    const userIdentifier = requiredString(body, 'userIdentifier')
    const userSecret = requiredString(body, 'userSecret')
    const user = ctx.store.directory.users.get(userIdentifier)
    // The same answer for an unknown user and a wrong secret: no probing for identifiers.
    if (!user || user.userSecret !== userSecret) {
      throw authenticationError('Invalid user identifier or user secret', 'invalid_credentials')
    }
    const { expiresIn, refreshExpiresIn } = ctx.config
    return sendData(
      reply,
      ctx.store.tokens.issue(user.userIdentifier, ctx.now(), expiresIn, refreshExpiresIn),
    )
  })

  app.post('/auth-api/v2/authenticate/refresh', async (request, reply) => {
    const refreshToken = requiredString(bodyObject(request.body), 'refreshToken')
    const check = ctx.store.tokens.checkRefresh(refreshToken, ctx.now())
    if (!check.ok) {
      throw authenticationError(
        check.reason === 'expired' ? 'The refresh token has expired' : 'The refresh token is not valid',
      )
    }
    if (!ctx.store.directory.users.has(check.userIdentifier)) {
      throw authenticationError('The refresh token is not valid')
    }
    const { expiresIn, refreshExpiresIn } = ctx.config
    return sendData(
      reply,
      ctx.store.tokens.issue(check.userIdentifier, ctx.now(), expiresIn, refreshExpiresIn),
    )
  })
}
