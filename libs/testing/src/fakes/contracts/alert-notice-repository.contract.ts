import type { Tenant } from '@ecomm-sync/contracts';
import type { AlertDestinationRepository, AlertNoticeRepository } from '@ecomm-sync/data-access';
import { aNewAlertNotice } from '../alert-builders';
import { aTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Notices = PublicOf<AlertNoticeRepository>;
type Destinations = PublicOf<AlertDestinationRepository>;

const T = 1_700_000_000_000;

/**
 * What the evaluator, the sender and the console rely on from AlertNoticeRepository: one notice per
 * change of state and destination, sent by one sender at a time (decision 0053). Run against the
 * fake and the real one.
 */
export function describeAlertNoticeRepositoryContract(name: string, make: () => Notices | Promise<Notices>): void {
  describe(`AlertNoticeRepository contract: ${name}`, () => {
    let notices: Notices;
    let tenant: Tenant;
    beforeEach(async () => {
      notices = await make();
      tenant = aTenant();
    });

    it('when a notice is stored twice and two senders take it at once, then it is one notice and one sender holds it', async () => {
      const [id] = await notices.store([aNewAlertNotice(tenant, { ruleId: 'rule-x', destinationId: 'dest-1' })]);
      const [again] = await notices.store([aNewAlertNotice(tenant, { ruleId: 'rule-x', destinationId: 'dest-1', value: 9 })]);
      expect(again).toBe(id);
      expect(await notices.find(id)).toMatchObject({ value: 3, status: 'pending', attempts: 0, lastError: null, leaseUntil: null, sentAt: null });

      const taken = await Promise.all([notices.take(id, T, T + 30_000), notices.take(id, T, T + 30_000)]);
      expect(taken.filter((notice) => notice !== null)).toEqual([expect.objectContaining({ id, status: 'sending', leaseUntil: T + 30_000 })]);
    });

    it('when a sender records attempts and finishes, then a sent notice is never taken again and a failed one is, with its reason kept until then', async () => {
      const [sent, failed] = await notices.store([aNewAlertNotice(tenant), aNewAlertNotice(tenant)]);
      await notices.take(sent, T, T + 30_000);
      await notices.recordAttempt(sent, T + 30_000, 'answered 503');
      await notices.recordAttempt(sent, T + 30_000, null);
      await notices.finish(sent, T + 30_000, { sent: true, at: T + 5 });
      expect(await notices.find(sent)).toMatchObject({ status: 'sent', attempts: 2, sentAt: T + 5, lastError: null, leaseUntil: null });
      expect(await notices.take(sent, T + 60_000, T + 90_000)).toBeNull();

      await notices.take(failed, T, T + 30_000);
      await notices.finish(failed, T + 30_000, { sent: false, error: 'answered 410' });
      expect(await notices.find(failed)).toMatchObject({ status: 'failed', lastError: 'answered 410' });
      expect(await notices.take(failed, T + 1, T + 30_000)).toMatchObject({ status: 'sending' });
    });

    it('when a sender holds a notice, then another takes it only once the lease ran out, and attempts count only while it is held', async () => {
      const [id] = await notices.store([aNewAlertNotice(tenant)]);
      expect(await notices.recordAttempt(id, T + 30_000, 'not held')).toBe(false);
      await notices.take(id, T, T + 30_000);

      expect(await notices.take(id, T + 29_999, T + 60_000)).toBeNull();
      expect(await notices.take(id, T + 30_001, T + 60_000)).toMatchObject({ leaseUntil: T + 60_000, attempts: 0 });
    });

    it("when a late sender's lease was taken over, then its attempts and its outcome are not written over the new holder's", async () => {
      const [id] = await notices.store([aNewAlertNotice(tenant)]);
      await notices.take(id, T, T + 30_000);
      await notices.take(id, T + 30_001, T + 60_000); // the first sender ran late past its lease

      expect(await notices.recordAttempt(id, T + 30_000, 'late')).toBe(false);
      expect(await notices.finish(id, T + 30_000, { sent: false, error: 'late' })).toBe(false);
      expect(await notices.find(id)).toMatchObject({ status: 'sending', leaseUntil: T + 60_000, attempts: 0, lastError: null });
      expect(await notices.recordAttempt(id, T + 60_000, null)).toBe(true);
      expect(await notices.finish(id, T + 60_000, { sent: true, at: T + 30_005 })).toBe(true);
      expect(await notices.find(id)).toMatchObject({ status: 'sent', attempts: 1 });
    });

    it('when notices are pending, then those stored before the window are queued again, oldest first, each stamped; taken ones are not', async () => {
      const [old, older, recent, taken] = await notices.store([
        aNewAlertNotice(tenant, { createdAt: T - 10 }),
        aNewAlertNotice(tenant, { createdAt: T - 20 }),
        aNewAlertNotice(tenant, { createdAt: T }),
        aNewAlertNotice(tenant, { createdAt: T - 30 }),
      ]);
      await notices.take(taken, T, T + 30_000);
      const mine = (ids: string[]) => ids.filter((id) => [old, older, recent, taken].includes(id));

      expect(mine(await notices.requeue(T + 5, { storedBefore: T, requeuedBefore: T, leaseEndedBefore: T }, 10_000))).toEqual([older, old]);
      expect(await notices.find(old)).toMatchObject({ status: 'pending', requeuedAt: T + 5 });
      expect(await notices.find(recent)).toMatchObject({ requeuedAt: null });
    });

    it('when a sender took a notice and never finished it, then it is queued again once its lease ended before the window’s mark, not before', async () => {
      const [id] = await notices.store([aNewAlertNotice(tenant, { createdAt: T - 1_000 })]);
      const mine = (ids: string[]) => ids.filter((one) => one === id);
      const window = (now: number) => ({ storedBefore: T, requeuedBefore: now, leaseEndedBefore: now - 10_000 });
      await notices.take(id, T, T + 30_000); // the sender dies here: its message was settled, nothing finishes the notice

      expect(mine(await notices.requeue(T + 30_001, window(T + 30_001), 10_000))).toEqual([]); // ended, but within the margin: it may run late
      expect(mine(await notices.requeue(T + 40_001, window(T + 40_001), 10_000))).toEqual([id]);
      expect(await notices.find(id)).toMatchObject({ status: 'sending', requeuedAt: T + 40_001 });
      expect(await notices.take(id, T + 40_002, T + 70_000)).toMatchObject({ status: 'sending', leaseUntil: T + 70_000 });
      expect(mine(await notices.requeue(T + 40_003, window(T + 40_003), 10_000))).toEqual([]); // held again
    });

    it('when the evaluator ticks again within the window, or two replicas at once, then each notice is queued again once per window', async () => {
      const [id] = await notices.store([aNewAlertNotice(tenant, { createdAt: T - 1_000 })]);
      const window = (now: number) => ({ storedBefore: now - 200, requeuedBefore: now - 100, leaseEndedBefore: now - 200 });
      const mine = (ids: string[]) => ids.filter((one) => one === id);

      const atOnce = await Promise.all([notices.requeue(T, window(T), 10_000), notices.requeue(T, window(T), 10_000)]);
      expect(atOnce.map(mine).flat()).toEqual([id]);
      expect(mine(await notices.requeue(T + 100, window(T + 100), 10_000))).toEqual([]);
      expect(mine(await notices.requeue(T + 101, window(T + 101), 10_000))).toEqual([id]);
      expect(await notices.find(id)).toMatchObject({ requeuedAt: T + 101 });
      await notices.take(id, T + 102, T + 30_000);
      expect(mine(await notices.requeue(T + 1_000, window(T + 1_000), 10_000))).toEqual([]);
    });

    it("when the console lists a tenant's notices, then it gets the newest first, at most the limit, and none of another tenant", async () => {
      const [first, second, third] = await notices.store([
        aNewAlertNotice(tenant, { createdAt: T }),
        aNewAlertNotice(tenant, { createdAt: T + 1 }),
        aNewAlertNotice(tenant, { createdAt: T + 2 }),
      ]);
      await notices.store([aNewAlertNotice(aTenant())]);

      expect((await notices.list(tenant, 10)).map((notice) => notice.id)).toEqual([third, second, first]);
      expect((await notices.list(tenant, 2)).map((notice) => notice.id)).toEqual([third, second]);
    });
  });
}

/** What the console, the sender and `reseal` rely on from AlertDestinationRepository; run against the fake and the real one. */
export function describeAlertDestinationRepositoryContract(name: string, make: () => Destinations | Promise<Destinations>): void {
  describe(`AlertDestinationRepository contract: ${name}`, () => {
    let destinations: Destinations;
    let tenant: Tenant;
    beforeEach(async () => {
      destinations = await make();
      tenant = aTenant();
    });

    it('when destinations are added, then the tenant lists them oldest first, anyone finds one by id, and only its tenant removes it', async () => {
      const mail = await destinations.add(
        tenant,
        { kind: 'email', target: 'ops@shop.example', shownTarget: 'ops@shop.example', label: 'Ops', sealedSecret: null },
        T + 1,
      );
      const hook = await destinations.add(
        tenant,
        { kind: 'webhook', target: 'v2.k.sealed-url', shownTarget: 'https://hooks.shop.example/…ok/a', label: '', sealedSecret: 'sealed' },
        T,
      );

      expect((await destinations.list(tenant)).map((one) => one.id)).toEqual([hook.id, mail.id]);
      expect(await destinations.find(mail.id)).toEqual({
        id: mail.id,
        portalId: tenant.portalId,
        appId: null,
        kind: 'email',
        target: 'ops@shop.example',
        shownTarget: 'ops@shop.example',
        label: 'Ops',
        sealedSecret: null,
        createdAt: T + 1,
      });
      expect(await destinations.list(aTenant())).toEqual([]);

      expect(await destinations.remove(aTenant(), mail.id)).toBe(false);
      expect(await destinations.remove(tenant, mail.id)).toBe(true);
      expect(await destinations.find(mail.id)).toBeNull();
    });

    it("when a tenant's destinations are all removed, then none of it is left and another tenant's stay", async () => {
      const other = aTenant();
      await destinations.add(tenant, { kind: 'email', target: 'ops@shop.example', shownTarget: null, label: '', sealedSecret: null }, T);
      await destinations.add({ ...tenant, appId: 'app-1' }, { kind: 'email', target: 'app@shop.example', shownTarget: null, label: '', sealedSecret: null }, T);
      await destinations.add(other, { kind: 'email', target: 'other@shop.example', shownTarget: null, label: '', sealedSecret: null }, T);

      expect(await destinations.removeAllOf({ ...tenant, appId: 'app-1' })).toBe(1);

      expect((await destinations.list({ ...tenant, appId: 'app-1' })).length).toBe(0);
      expect((await destinations.list(tenant)).map((one) => one.target)).toEqual(['ops@shop.example']);
      expect((await destinations.list(other)).map((one) => one.target)).toEqual(['other@shop.example']);
    });

    it('when a sealed secret is replaced, then only over the one read; the secrets are walked in id order after an id', async () => {
      const ids: string[] = ['a', 'b'].map((letter) => `00000000-${letter}000-0000-0000-${tenant.portalId}`);
      for (const id of ids)
        await destinations.add(
          tenant,
          { kind: 'webhook', target: 'https://hooks.shop.example/a', shownTarget: null, label: '', sealedSecret: `old-${id}` },
          T,
          id as `${string}-${string}-${string}-${string}-${string}`,
        );
      await destinations.add(tenant, { kind: 'email', target: 'ops@shop.example', shownTarget: null, label: '', sealedSecret: null }, T);

      const walked = (await destinations.sealedSecrets('', 10_000)).filter((secret) => ids.includes(secret.id));
      expect(walked).toEqual(ids.map((id) => ({ id, sealed: `old-${id}` })));
      expect((await destinations.sealedSecrets(ids[0], 10_000)).some((secret) => secret.id === ids[0])).toBe(false);

      expect(await destinations.replaceSealedSecret(ids[0], `old-${ids[0]}`, 'new')).toBe(true);
      expect(await destinations.replaceSealedSecret(ids[0], `old-${ids[0]}`, 'newer')).toBe(false);
      expect((await destinations.find(ids[0]))!.sealedSecret).toBe('new');
    });

    it('when a URL is replaced, then only over the one read, with how it reads; the URLs are walked in id order after an id, e-mail addresses left out', async () => {
      const ids: string[] = ['a', 'b'].map((letter) => `00000000-${letter}000-0000-0001-${tenant.portalId}`);
      await destinations.add(
        tenant,
        { kind: 'webhook', target: 'https://hooks.shop.example/a', shownTarget: null, label: '', sealedSecret: 's' },
        T,
        ids[0] as `${string}-${string}-${string}-${string}-${string}`,
      );
      await destinations.add(
        tenant,
        { kind: 'slack', target: 'v2.k.slack', shownTarget: 'https://hooks.slack.com/…wxyz', label: '', sealedSecret: null },
        T,
        ids[1] as `${string}-${string}-${string}-${string}-${string}`,
      );
      const mail = await destinations.add(
        tenant,
        { kind: 'email', target: 'ops@shop.example', shownTarget: 'ops@shop.example', label: '', sealedSecret: null },
        T,
      );

      const walked = await destinations.urlTargets('', 10_000);
      expect(walked.filter((url) => ids.includes(url.id))).toEqual([
        { id: ids[0], kind: 'webhook', target: 'https://hooks.shop.example/a' },
        { id: ids[1], kind: 'slack', target: 'v2.k.slack' },
      ]);
      expect(walked.some((url) => url.id === mail.id)).toBe(false);
      expect((await destinations.urlTargets(ids[0], 10_000)).some((url) => url.id === ids[0])).toBe(false);

      const sealed = { target: 'v2.k.hook', shownTarget: 'https://hooks.shop.example/…le/a' };
      expect(await destinations.replaceTarget(ids[0], 'https://hooks.shop.example/a', sealed)).toBe(true);
      expect(await destinations.replaceTarget(ids[0], 'https://hooks.shop.example/a', { target: 'v2.k.other', shownTarget: 'x' })).toBe(false);
      expect(await destinations.find(ids[0])).toMatchObject(sealed);
    });
  });
}
