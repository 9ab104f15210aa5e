import { vi } from 'vitest';
import { ownAccountSuite } from '../support/own-account.ts';

// A bug in the service, simulated: its own-account check lets everything through. The database's triggers
// (migration 0022) must still refuse every one of these actions, with nothing changed, and the admin API answers
// their refusal as the service would have.
vi.mock('../../src/modules/admin/access.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/modules/admin/access.ts')>()),
  refuseOwnAccount: () => undefined,
}));

ownAccountSuite('staff on their own account, with the service check switched off: the database refuses');
