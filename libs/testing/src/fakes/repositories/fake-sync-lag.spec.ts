import { describeSyncLagContract } from '../contracts/sync-lag.contract';
import { FakeObjectStateRepository } from './fake-object-state.repository';
import { FakeObjectSyncRepository } from './fake-object-sync.repository';

describeSyncLagContract('FakeObjectStateRepository with FakeObjectSyncRepository', () => {
  const syncs = new FakeObjectSyncRepository();
  return { states: new FakeObjectStateRepository(Date.now, syncs), syncs };
});
