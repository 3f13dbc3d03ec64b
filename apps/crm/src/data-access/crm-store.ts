import type { Connection } from 'mongoose';
import { AccountStore } from './account-store';
import { AssociationLabelStore } from './association-label-store';
import { AssociationStore } from './association-store';
import { crmModels, type CrmModels } from './crm-models';
import { moveLegacyAssociations } from './legacy-associations';
import { ObjectStore } from './object-store';
import { OAuthStore } from './oauth-store';
import { PipelineStore } from './pipeline-store';
import { PropertyStore } from './property-store';

export type { Account } from './account-store';
export type { Pipeline } from './pipeline-store';
export type { Properties, SearchGroup, StoredObject } from './object-store';

/**
 * The built-in CRM's data, one store per concern over one connection. The stores raise CrmError;
 * the entry points answer it as HTTP.
 */
export class CrmStore {
  private readonly models: CrmModels;
  readonly accounts: AccountStore;
  readonly properties: PropertyStore;
  readonly objects: ObjectStore;
  readonly associations: AssociationStore;
  readonly associationLabels: AssociationLabelStore;
  readonly pipelines: PipelineStore;
  readonly oauth: OAuthStore;

  constructor(connection: Connection) {
    this.models = crmModels(connection);
    this.accounts = new AccountStore(this.models);
    this.properties = new PropertyStore(this.models);
    this.objects = new ObjectStore(this.models, this.properties);
    this.associationLabels = new AssociationLabelStore(this.models);
    this.associations = new AssociationStore(this.models, this.objects, this.associationLabels);
    this.pipelines = new PipelineStore(this.models);
    this.oauth = new OAuthStore(this.models);
  }

  async createIndexes(): Promise<void> {
    await Promise.all(Object.values(this.models).map((model) => model.createIndexes()));
  }

  /** Moves associations kept on objects before decision 56 to their own documents; how many objects held some. */
  async moveLegacyAssociations(): Promise<number> {
    return moveLegacyAssociations(this.models);
  }
}
