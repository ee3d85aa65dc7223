import { Hono } from 'hono'
import { ENDPOINTS as E, type Reply } from '../../src/contract/endpoints'
import type { PushConfig } from '../../src/contract/notifications'
import { publicCache } from '../http/cache'
import { requireUser } from '../http/auth'
import { formBodyLimit, validForm } from '../http/body'
import type { AppEnv } from '../http/env'
import { messageReply } from '../http/errors'
import { ApiError } from '../core/errors'
import { idParam } from '../core/paging'
import { deleteNotification, readNotifications } from '../services/notifications'
import { setPushToken } from '../services/sessions'

/** The bell's notifications, and the push token of the device. */
export const notificationRoutes = new Hono<AppEnv>()
  .get(E.notifications.path, requireUser, async (c) =>
    c.json(
      await readNotifications(c.var.db, c.var.user.id, c.req.query(), {
        now: c.var.clock.now(),
        locale: c.var.locale,
        timeZone: c.var.config.storeTimeZone,
      }),
    ),
  )
  .delete(E.deleteNotification.path, requireUser, async (c) => {
    const id = idParam(c.req.param('id'))
    if (id === undefined || !(await deleteNotification(c.var.db, c.var.user.id, id)))
      throw new ApiError(404, 'notification.not_found')
    return messageReply(c, 200, 'notification.deleted')
  })
  .post(
    E.savePushToken.path,
    formBodyLimit(),
    requireUser,
    validForm(E.savePushToken.body, { fcm_token: { label: 'field.fcm_token' } }),
    async (c) => {
      const { fcm_token } = c.req.valid('form')
      await setPushToken(c.var.db, c.var.sessionId, fcm_token || null, c.var.clock.now())
      return messageReply(c, 200, 'notification.push_saved')
    },
  )

/**
 * GET push/config: the Firebase web app's settings when this server sends pushes (FCM, or the
 * development outbox), else null; the same for everyone. Set on the server and seen by the
 * storefront at run time: a store owner who adds Firebase restarts the server, not a build.
 */
export const pushConfigRoutes = (config: PushConfig | null) =>
  new Hono<AppEnv>().get(E.pushConfig.path, publicCache(), (c) => {
    const reply: Reply<'pushConfig'> = { data: config }
    return c.json(reply)
  })
