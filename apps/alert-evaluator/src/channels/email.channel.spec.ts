import type { AlertNotice } from '@ecomm-sync/data-access';
import { noticeMessageId } from './email.channel';

const notice = { id: 'n-42' } as AlertNotice;

describe('noticeMessageId', () => {
  it.each([
    ['when the From has a name and an address, then the id is at its domain', 'ecomm-sync alerts <alerts@shop.example>', '<notice-n-42@shop.example>'],
    ['when the From is a bare address, then the id is at its domain', 'alerts@mail.shop.example', '<notice-n-42@mail.shop.example>'],
    ['when the From has no domain, then the id is at ecomm-sync.invalid', 'alerts', '<notice-n-42@ecomm-sync.invalid>'],
  ])('%s', (_name, from, expected) => {
    expect(noticeMessageId(notice, from)).toBe(expected);
  });

  it('when the id holds colons (rule, window, destination), then they become underscores', () => {
    expect(noticeMessageId({ id: 'r-1:7:d-2' } as AlertNotice, 'a@b.example')).toBe('<notice-r-1_7_d-2@b.example>');
  });

  it('when one notice is sent twice, then both e-mails have one Message-ID', () => {
    expect(noticeMessageId(notice, 'a@b.example')).toBe(noticeMessageId({ ...notice }, 'a@b.example'));
  });
});
