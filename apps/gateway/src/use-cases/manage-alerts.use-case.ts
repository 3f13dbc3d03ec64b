import { randomUUID } from 'node:crypto';
import {
  DEFAULT_STORE_ID,
  MAX_ALERT_DESTINATIONS,
  MAX_ALERT_RULES,
  type AlertDestinationInput,
  type AlertRuleInput,
  type ConsoleAlertDestination,
  type ConsoleAlertNotice,
  type ConsoleAlertRule,
  type Tenant,
} from '@ecomm-sync/contracts';
import { destinationShown, newSecret, sealedFor, storedDestinationTarget, type AlertRule, type Repositories, type SecretBox } from '@ecomm-sync/data-access';
import { alertRuleProblem, withUrlsShown, type AlertCondition } from '@ecomm-sync/domain';
import { AppError } from '@ecomm-sync/runtime';

/** How many of a tenant's newest notices the console shows. */
const NOTICES_SHOWN = 20;

const present = (rule: AlertRule): ConsoleAlertRule => ({
  id: rule.id,
  portalId: rule.portalId,
  appId: rule.appId,
  storeId: rule.storeId,
  name: rule.name,
  enabled: rule.enabled,
  isDefault: rule.defaultKey !== null,
  condition: rule.condition as ConsoleAlertRule['condition'],
  state: { status: rule.state.status, since: rule.state.since, value: rule.state.value, summary: rule.state.summary },
  lastEvaluatedAt: rule.lastEvaluatedAt,
});

/**
 * A tenant's alert rules, destinations and notices (issue 29, decision 0053), for the console's
 * alerts page and its API. The tenant was checked by the console's credential rule; every read and
 * write here carries it.
 */
export class ManageAlertsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'alertRules' | 'alertDestinations' | 'alertNotices' | 'stores' | 'objectStates'>,
    private readonly secrets: SecretBox,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The rules every tenant has from install on (also made here for tenants installed before alerts existed). */
  ensureDefaults(tenant: Tenant): Promise<void> {
    return this.repositories.alertRules.ensureDefaults(tenant, this.clock());
  }

  /** The tenant is gone (its application was removed from the portal): its rules stop and its destinations are deleted. */
  async removeAllOf(tenant: Tenant): Promise<void> {
    await this.repositories.alertRules.removeAllOf(tenant);
    await this.repositories.alertDestinations.removeAllOf(tenant);
  }

  async read(tenant: Tenant): Promise<{ rules: ConsoleAlertRule[]; destinations: ConsoleAlertDestination[]; notices: ConsoleAlertNotice[] }> {
    await this.ensureDefaults(tenant);
    const [rules, destinations, notices] = await Promise.all([
      this.repositories.alertRules.list(tenant),
      this.repositories.alertDestinations.list(tenant),
      this.repositories.alertNotices.list(tenant, NOTICES_SHOWN),
    ]);
    return {
      rules: rules.map(present),
      destinations: destinations.map((destination) => {
        const { id, kind, label, createdAt } = destination;
        return { id, kind, target: destinationShown(destination), label, createdAt };
      }),
      notices: notices.map(({ id, ruleId, ruleName, destinationId, kind, value, summary, createdAt, status, attempts, lastError }) => ({
        id,
        ruleId,
        ruleName,
        destinationId,
        kind,
        value,
        summary,
        createdAt,
        status,
        attempts,
        // A reason stored before URLs were shown by their ends carries the whole URL.
        lastError: lastError === null ? null : withUrlsShown(lastError),
      })),
    };
  }

  /** 409 once the tenant has MAX_ALERT_RULES, however many adds race (`addWithinCap`). */
  async createRule(tenant: Tenant, input: AlertRuleInput): Promise<ConsoleAlertRule> {
    checkMeaning(input);
    await this.checkStore(tenant, input.storeId ?? null);
    const rules = this.repositories.alertRules;
    const created = await addWithinCap({
      cap: MAX_ALERT_RULES,
      list: () => rules.list(tenant),
      add: () => rules.create(tenant, fieldsOf(input), this.clock()),
      takeBack: (rule) => rules.remove(tenant, rule.id),
      refused: `A tenant has at most ${MAX_ALERT_RULES} alert rules, the install's among them; delete or change one instead`,
    });
    return present(created);
  }

  async replaceRule(tenant: Tenant, ruleId: string, input: AlertRuleInput): Promise<ConsoleAlertRule> {
    const current = await this.repositories.alertRules.find(tenant, ruleId);
    if (!current) throw AppError.notFound(`No alert rule ${ruleId}`);
    // A rule stored before these checks may still be renamed, enabled or disabled as it is; a change of what it watches is checked.
    const sameWatch = sameFields(input.condition, current.condition) && (input.storeId ?? null) === current.storeId;
    if (!sameWatch) checkMeaning(input);
    // A rule may keep the store it watched after the store was deleted; it may not move to one that does not exist.
    if ((input.storeId ?? null) !== current.storeId) await this.checkStore(tenant, input.storeId ?? null);
    const replaced = await this.repositories.alertRules.replace(tenant, ruleId, fieldsOf(input));
    if (!replaced) throw AppError.notFound(`No alert rule ${ruleId}`);
    return present(replaced);
  }

  /** Enables or disables a rule as it is stored now (not as the caller last read it). */
  async switchRule(tenant: Tenant, ruleId: string, enabled: boolean): Promise<ConsoleAlertRule> {
    const switched = await this.repositories.alertRules.setEnabled(tenant, ruleId, enabled);
    if (!switched) throw AppError.notFound(`No alert rule ${ruleId}`);
    return present(switched);
  }

  /**
   * A rule that names a store watches its own tenant's data in that store only (the evaluator reads
   * by portal, application and store). A name under which the tenant has neither a store nor data
   * (a typing error, another application's store) would never fire, so it is refused with what to
   * do. `default`, the store of v1 traffic, is every tenant's.
   */
  private async checkStore(tenant: Tenant, storeId: string | null): Promise<void> {
    if (storeId === null || storeId === DEFAULT_STORE_ID) return;
    const [store, hasObjects] = await Promise.all([
      this.repositories.stores.find(tenant, storeId),
      this.repositories.objectStates.hasObjectsIn(tenant, storeId),
    ]);
    if (store || hasObjects) return;
    const owner = tenant.appId === null ? `portal ${tenant.portalId}'s own data` : `application ${tenant.appId} in portal ${tenant.portalId}`;
    throw AppError.badRequest(
      `storeId "${storeId}" names no store of ${owner}: a rule watches only its own tenant's data, so a store it has neither defined nor sent data to would never fire it. Use one of its stores (the console overview lists them: GET /console/api/v1/overview with the same credential), or leave storeId out to watch every store`,
    );
  }

  async deleteRule(tenant: Tenant, ruleId: string): Promise<void> {
    if (await this.repositories.alertRules.remove(tenant, ruleId)) return;
    const rule = await this.repositories.alertRules.find(tenant, ruleId);
    if (!rule) throw AppError.notFound(`No alert rule ${ruleId}`);
    throw AppError.conflict(`The alert rule "${rule.name}" came with the install: disable it instead of deleting it`);
  }

  /**
   * Adds a destination (409 beyond MAX_ALERT_DESTINATIONS); a webhook's signing secret is answered
   * once (only its sealed form is kept). A URL is sealed too, kept only for sending, and answered as
   * it is listed, by its origin and last characters (shownDestination).
   */
  async addDestination(tenant: Tenant, input: AlertDestinationInput): Promise<ConsoleAlertDestination & { signingSecret?: string }> {
    const target = 'email' in input ? input.email : checkedUrl(input.url);
    const destinations = this.repositories.alertDestinations;
    const id = randomUUID();
    const secret = input.kind === 'webhook' ? newSecret('whsec') : undefined;
    const sealedSecret = secret ? this.secrets.seal(secret, sealedFor.alertDestinationSecret(id)) : null;
    const added = await addWithinCap({
      cap: MAX_ALERT_DESTINATIONS,
      list: () => destinations.list(tenant),
      add: () =>
        destinations.add(
          tenant,
          { kind: input.kind, ...storedDestinationTarget(this.secrets, id, input.kind, target), label: input.label ?? '', sealedSecret },
          this.clock(),
          id,
        ),
      takeBack: (destination) => destinations.remove(tenant, destination.id),
      refused: `A tenant has at most ${MAX_ALERT_DESTINATIONS} alert destinations; remove one first`,
    });
    return {
      id: added.id,
      kind: added.kind,
      target: destinationShown(added),
      label: added.label,
      createdAt: added.createdAt,
      ...(secret ? { signingSecret: secret } : {}),
    };
  }

  async removeDestination(tenant: Tenant, destinationId: string): Promise<void> {
    if (!(await this.repositories.alertDestinations.remove(tenant, destinationId))) throw AppError.notFound(`No alert destination ${destinationId}`);
  }
}

/**
 * An add within a tenant's cap: refused (409, `refused`) when the tenant is at the cap already; else
 * added, then counted again, and taken back and refused when over it. Adds that raced past the first
 * count each see every insert in the second, so none stays beyond the cap (under a burst some may be
 * refused that would have fit: the client adds again).
 */
async function addWithinCap<T>({
  cap,
  list,
  add,
  takeBack,
  refused,
}: {
  cap: number;
  list: () => Promise<unknown[]>;
  add: () => Promise<T>;
  takeBack: (added: T) => Promise<unknown>;
  refused: string;
}): Promise<T> {
  if ((await list()).length >= cap) throw AppError.conflict(refused);
  const added = await add();
  if ((await list()).length <= cap) return added;
  await takeBack(added);
  throw AppError.conflict(refused);
}

/** Two flat records (a rule's condition) with the same fields and values, whatever their order. */
function sameFields(a: object, b: object): boolean {
  const [first, second] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = Object.keys(first);
  return keys.length === Object.keys(second).length && keys.every((key) => first[key] === second[key]);
}

/** A rule that could never mean what it says (alertRuleProblem) is a 400 that says what to send. */
function checkMeaning(input: AlertRuleInput): void {
  const problem = alertRuleProblem({ storeId: input.storeId ?? null, condition: input.condition as AlertCondition });
  if (problem) throw AppError.badRequest(problem);
}

function fieldsOf(input: AlertRuleInput) {
  return { name: input.name, storeId: input.storeId ?? null, enabled: input.enabled ?? true, condition: input.condition as AlertCondition };
}

/** A URL with a host, http or https; whether its host may be called is decided when a notice is sent (decision 0026). */
function checkedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname) return parsed.toString();
  } catch {
    // answered below
  }
  throw AppError.badRequest(`url must be an http or https URL, got "${url}"`);
}
