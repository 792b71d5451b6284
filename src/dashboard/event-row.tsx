/** @jsxImportSource hono/jsx */
import { Action, When } from './components.js';
import type { ApiEvent } from './types.js';

/** The dashboard page of the object an event is about, when it has one. */
export function resourceLink(data: Record<string, unknown>): { href: string; label: string } | undefined {
  const id = typeof data.id === 'string' ? data.id : undefined;
  const customerId = typeof data.customer_id === 'string' ? data.customer_id : undefined;
  const loanId = typeof data.loan_id === 'string' ? data.loan_id : undefined;
  if (id?.startsWith('cust_')) return { href: `/dashboard/customers/${id}`, label: id };
  if (id?.startsWith('ln_')) return { href: `/dashboard/loans/${id}`, label: id };
  if (loanId) return { href: `/dashboard/loans/${loanId}`, label: loanId };
  if (id?.startsWith('co_') && customerId) return { href: `/dashboard/customers/${customerId}`, label: id };
  return undefined;
}

/** One event: when (partner clock), type, the object it is about, its JSON payload, and Redeliver. */
export const EventRow = ({
  event,
  nowMs,
  csrf,
  redeliver = true,
}: {
  event: ApiEvent;
  nowMs: number;
  csrf?: string;
  /** False when the partner has no active endpoint: a redelivery would go nowhere. */
  redeliver?: boolean;
}) => {
  const link = resourceLink(event.data as Record<string, unknown>);
  return (
    <tr id={`row-${event.id}`} data-event-type={event.type}>
      <td data-label="When">
        <When iso={event.timestamp} nowMs={nowMs} />
      </td>
      <td data-label="Type">
        <code>{event.type}</code>
      </td>
      <td data-label="Object">
        {link ? <a href={link.href}>{link.label}</a> : <span class="muted">—</span>}
      </td>
      {/* Takes the width left and wraps the JSON, so the Redeliver column stays on-screen. */}
      <td data-label="Payload" class="payload">
        <details>
          <summary>
            JSON <span class="muted">{event.id}</span>
          </summary>
          <pre>{JSON.stringify(event, null, 2)}</pre>
        </details>
      </td>
      {csrf ? (
        <td data-label="">
          {redeliver ? (
            <Action action={`/dashboard/events/${event.id}/redeliver`} label="Redeliver" csrf={csrf} />
          ) : null}
        </td>
      ) : null}
    </tr>
  );
};
