import { Types } from 'mongoose';
import { realDatabase } from './real-database';

/**
 * An import stored before decision 49 (no `rev`, no `pageItems`: its pages were counted from
 * import_pages at its end) that is open across the upgrade: its pages still count.
 */
describe('an import stored before its pages were counted in its document', () => {
  const database = realDatabase('import-upgrade');

  it('when it is read, then its stored pages are counted from import_pages, and a compare-and-set on it stores them', async () => {
    const { connection, repositories } = database();
    const _id = new Types.ObjectId();
    const importId = String(_id);
    await connection.collection('imports').insertOne({
      _id,
      portalId: 42,
      appId: 'app-1',
      storeId: 'default',
      importStartedAt: 1,
      version: 'v2',
      status: 'receiving',
      webhookUri: 'https://example.com/hook',
      types: { CONTACT: { settingsId: 1, expectedCount: 5, ended: false, pageCount: null, itemCount: null } },
      failureReason: null,
      completedAt: null,
      releasedThrough: null,
      releasedAt: null,
      createdAt: 1,
    });
    const message = { externalObjectId: 'x', properties: {} };
    await connection.collection('import_pages').insertMany([
      { importId, objectType: 'CONTACT', pageNumber: 1, messages: [message, message, message] },
      { importId, objectType: 'CONTACT', pageNumber: 2, messages: [message, message] },
    ]);

    const found = (await repositories.imports.findById(importId))!;
    expect(found.rev).toBe(0);
    expect(found.types.CONTACT?.pageItems).toEqual({ '1': 3, '2': 2 });
    expect(await repositories.imports.compareAndSet(importId, 0, found)).toBe(true);
    const stored = await connection.collection('imports').findOne({ _id });
    expect(stored?.types.CONTACT.pageItems).toEqual({ '1': 3, '2': 2 });
    expect(stored?.rev).toBe(1);
  });
});

/** A page stored before import messages kept their properties as [name, value] pairs: read as it was sent. */
describe('an import page stored with its properties as a map', () => {
  const database = realDatabase('import-page-upgrade');

  it('when it is read for the release or the answer, then its messages are as sent', async () => {
    const { connection, repositories } = database();
    const importId = String(new Types.ObjectId());
    const message = { externalObjectId: 'kept', properties: { email: 'ada@example.com', firstname: 'Ada' }, associations: { DEAL: ['d-1'] } };
    await connection.collection('import_pages').insertOne({ importId, objectType: 'LINE_ITEM', pageNumber: 1, messages: [message] });

    expect(await repositories.imports.getPage(importId, 'LINE_ITEM', 1)).toEqual([message]);
    expect(await repositories.imports.pagesOf(importId, 'LINE_ITEM', 0, 5)).toEqual([{ pageNumber: 1, messages: [message] }]);
  });
});
