import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { USER_KEY } from '../api/session'

/**
 * A push that arrives while the store is open and seen comes to the page (the service worker
 * shows no notification then): the customer's data is asked for again, so the bell's count and
 * an open order's status change at once.
 */
export function usePushMessages() {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === 'push')
        void queryClient.invalidateQueries({ queryKey: USER_KEY })
    }
    navigator.serviceWorker.addEventListener('message', onMessage)
    return () => navigator.serviceWorker.removeEventListener('message', onMessage)
  }, [queryClient])
}
