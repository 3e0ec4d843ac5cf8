import { expect } from 'vitest'
import { TmsApiError } from '../../src/client/index'

/** The TmsApiError a call fails with; the test fails if it succeeds or fails otherwise. */
export async function failure(promise: Promise<unknown>): Promise<TmsApiError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(TmsApiError)
    return error as TmsApiError
  }
  throw new Error('expected the call to fail')
}
