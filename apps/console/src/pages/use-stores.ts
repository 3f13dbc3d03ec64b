import type { ConsoleOverview, ConsoleStoreOverview } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import type { Session } from '../session';
import { usePolling } from '../use-polling';
import { scopeQuery } from './scope';

/** The stores of every tenant in the page's scope (the overview lists them), for a page's store pick; read every 30 s. */
export function useStores(session: Session, params: Record<string, string>): ConsoleStoreOverview[] {
  const overview = usePolling(
    () => sessionApi<ConsoleOverview>(session, '/console/api/v1/overview', { query: scopeQuery(session, params) }),
    [session.secret, params.portalId],
    30_000,
  );
  return overview.data?.stores ?? [];
}

/** Each store id once, sorted; `always` ones (`default`) are offered before any store sent data. */
export const storeIds = (stores: readonly { storeId: string }[], ...always: string[]): string[] =>
  [...new Set([...always, ...stores.map((s) => s.storeId)])].sort();
