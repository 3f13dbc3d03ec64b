import { onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import { createHash } from 'node:crypto';
import { CrmError } from '../domain/crm-error';
import type { HostedLimits } from '../domain/hosted-limits';
import { DEFAULT_PIPELINE, DEFAULT_PROPERTIES, withDefaults, type CrmType } from '../domain/object-types';
import type { CrmModels } from './crm-models';

export interface Account {
  portalId: number;
  pipelineLimit: number;
  /** The hosted limits the account emulates: null when switched off, undefined when the environment's apply. */
  limits?: HostedLimits | null;
}

export type AccountDoc = { portalId: number; pipelineLimit: number; limits?: unknown };

export const asAccount = ({ portalId, pipelineLimit, limits }: AccountDoc): Account =>
  limits === undefined ? { portalId, pipelineLimit } : { portalId, pipelineLimit, limits: limits as HostedLimits | null };

/** How every bearer secret of the CRM is stored: tokens, OAuth client secrets and refresh tokens. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const tokenTaken = () => CrmError.conflict('token is already used by another account: give each account a token of its own');

/** A write that another account's token beat (two admins at once): the same 409, never a 500. */
function duplicateTokenIsConflict(error: unknown): never {
  if (onlyDuplicateKeyErrors(error)) throw tokenTaken();
  throw error;
}

/** Accounts of the built-in CRM: one per portal, found by its bearer token. */
export class AccountStore {
  constructor(private readonly models: CrmModels) {}

  /** Creates the account with the default properties and pipeline, or sets its token. Idempotent. */
  async ensureAccount(portalId: number, token: string, pipelineLimit: number): Promise<Account> {
    const tokenHash = hashToken(token);
    // One token opens one account (a unique index): said before anything of a new account is written.
    if (await this.models.accounts.exists({ tokenHash, portalId: { $ne: portalId } })) throw tokenTaken();
    const existing = await this.models.accounts.findOne({ portalId }).lean();
    if (existing) {
      await this.models.accounts.updateOne({ portalId }, { $set: { tokenHash } }).catch(duplicateTokenIsConflict);
      return { portalId, pipelineLimit: existing.pipelineLimit };
    }
    const properties = Object.entries(DEFAULT_PROPERTIES).flatMap(([objectType, definitions]) =>
      definitions.map((definition) => ({ portalId, objectType, ...withDefaults(objectType as CrmType, definition) })),
    );
    await this.models.properties.insertMany(properties, { ordered: false }).catch((error) => {
      if (!onlyDuplicateKeyErrors(error)) throw error;
    });
    await this.models.pipelines.updateOne({ portalId, id: DEFAULT_PIPELINE.id }, { $setOnInsert: DEFAULT_PIPELINE }, { upsert: true });
    await this.models.accounts
      .updateOne({ portalId }, { $set: { tokenHash }, $setOnInsert: { pipelineLimit } }, { upsert: true })
      .catch(duplicateTokenIsConflict);
    return { portalId, pipelineLimit };
  }

  async setPipelineLimit(portalId: number, pipelineLimit: number): Promise<boolean> {
    const result = await this.models.accounts.updateOne({ portalId }, { $set: { pipelineLimit } });
    return result.matchedCount === 1;
  }

  async accountByToken(token: string): Promise<Account | null> {
    const account = await this.models.accounts.findOne({ tokenHash: hashToken(token) }).lean();
    return account ? asAccount(account) : null;
  }

  async account(portalId: number): Promise<Account | null> {
    const account = await this.models.accounts.findOne({ portalId }).lean();
    return account ? asAccount(account) : null;
  }

  /** Sets the account's own limits (null: none, whatever the environment says); false when there is no such account. */
  async setLimits(portalId: number, limits: HostedLimits | null): Promise<boolean> {
    const result = await this.models.accounts.updateOne({ portalId }, { $set: { limits } });
    return result.matchedCount === 1;
  }
}
