import type { ConsoleAlertDestination, ConsoleAlertNotice } from '@ecomm-sync/contracts';
import { TimeOf } from '../components/states';

const DELIVERY: Record<ConsoleAlertNotice['status'], string> = { pending: 'Waiting to be sent', sending: 'Sending', sent: 'Sent', failed: 'Failed' };

/** Where a notice went: the destination's address, or that it was removed since. */
const destinationOf = (notice: ConsoleAlertNotice, destinations: readonly ConsoleAlertDestination[]) =>
  destinations.find((destination) => destination.id === notice.destinationId)?.target ?? 'a removed destination';

/** The newest notices (one per change of state and destination), with their delivery: attempts, and why a failed one failed. */
export function AlertNotices({ notices, destinations }: { notices: readonly ConsoleAlertNotice[]; destinations: readonly ConsoleAlertDestination[] }) {
  if (notices.length === 0)
    return <p className="muted">No notices yet: a rule sends one to each destination when it starts firing, and one when it is resolved.</p>;
  return (
    <table>
      <caption>Newest notices</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Rule</th>
          <th scope="col">Change</th>
          <th scope="col">Sent to</th>
          <th scope="col">Delivery</th>
        </tr>
      </thead>
      <tbody>
        {notices.map((notice) => (
          <tr key={notice.id} data-notice-rule={notice.ruleName} data-sent-to={destinationOf(notice, destinations)} data-delivery={notice.status}>
            <td>
              <TimeOf at={notice.createdAt} />
            </td>
            <th scope="row">{notice.ruleName}</th>
            <td>
              <span className={`badge ${notice.kind === 'firing' ? 'firing' : 'ok'}`}>{notice.kind === 'firing' ? 'Firing' : 'Resolved'}</span>{' '}
              <span className="muted">{notice.summary}</span>
            </td>
            <td className="address">{destinationOf(notice, destinations)}</td>
            <td className={notice.status === 'failed' ? 'warn' : undefined}>
              {DELIVERY[notice.status]}
              {/* A failure's reason already says how many attempts were made. */}
              {notice.lastError ? `: ${notice.lastError}` : notice.attempts > 0 ? ` after ${notice.attempts} attempt${notice.attempts === 1 ? '' : 's'}` : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
