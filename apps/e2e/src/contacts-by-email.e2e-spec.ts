import axios from 'axios';
import amqplib from 'amqplib';
import { aV2Message, aV2Submission, testInfrastructure, type TestPortal, TestStack } from '@ecomm-sync/testing';
import { gatewayClient, requireCrmId } from './gateway-client';

/**
 * SPEC: a new contact id whose e-mail a CRM contact has is linked to that contact. The CRM holds
 * one contact per e-mail, so ids that share one end as ONE contact wherever they meet: in one
 * request, in requests sent at once, on two applier replicas (decision 44).
 */
describe('one contact per e-mail (two applier replicas)', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let client: ReturnType<typeof gatewayClient>;

  beforeAll(async () => {
    stack = await TestStack.start();
    await stack.startApp('applier', 'second');
    portal = await stack.createPortal();
    client = gatewayClient(stack, portal);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** The CRM's contacts with this e-mail (its search matches e-mails without case). */
  const contactsWithEmail = async (email: string): Promise<string[]> =>
    (
      await axios.post(
        `${stack.crmUrl}/crm/v3/objects/contacts/search`,
        { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: email }] }] },
        { headers: { authorization: `Bearer ${portal.crmToken}` } },
      )
    ).data.results.map((result: { id: string }) => result.id);

  const contact = (externalObjectId: string, email: string) => aV2Message({ externalObjectId, properties: { email, firstname: externalObjectId } });

  it('when the stack runs a second applier, then both replicas consume the applier queue', async () => {
    const connection = await amqplib.connect(testInfrastructure().amqpUrl);
    try {
      const channel = await connection.createChannel();
      expect((await channel.checkQueue(`${stack.name}.applier.mapped-changes`)).consumerCount).toBe(2);
    } finally {
      await connection.close();
    }
  });

  it('when one request carries two new ids with one e-mail in two cases, then the CRM has one contact and both ids link to it', async () => {
    await client.putV2(aV2Submission('CONTACT', [contact('one-a', 'one@example.com'), contact('one-b', 'One@Example.COM')]));

    const [a, b] = [await client.processed('CONTACT', 'one-a'), await client.processed('CONTACT', 'one-b')];
    expect(a.errors).toEqual([]);
    expect(b.crmId).toBe(a.crmId);
    expect(await contactsWithEmail('one@example.com')).toEqual([String(requireCrmId(a.crmId))]);
  });

  it('when many requests with ids sharing e-mails are sent at once, then each e-mail is one contact and every id links to it', async () => {
    const emails = Array.from({ length: 10 }, (_, n) => `many-${n}@example.com`);
    // Three ids per address, each in a request of its own, all at once: they meet on both replicas.
    await Promise.all(
      emails.flatMap((email, n) => ['x', 'y', 'z'].map((suffix) => client.putV2(aV2Submission('CONTACT', [contact(`many-${n}-${suffix}`, email)])))),
    );

    for (const [n, email] of emails.entries()) {
      const statuses = await Promise.all(['x', 'y', 'z'].map((suffix) => client.processed('CONTACT', `many-${n}-${suffix}`)));
      const found = await contactsWithEmail(email);
      expect(found).toHaveLength(1);
      expect(statuses.map((status) => String(status.crmId))).toEqual([found[0], found[0], found[0]]);
    }
  });
});
