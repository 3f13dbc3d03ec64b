import type { ErrorStatus, ErrorType } from '@ecomm-sync/contracts';

/** What fixes an error, and whether a retry (re-apply from what is stored) can help once it is fixed. */
export interface ErrorAdvice {
  /** One or two sentences for the person reading the error in the console. */
  whatToDo: string;
  /**
   * True when the fix is outside the message (mappings, CRM properties, the portal's state): after
   * it, re-applying the stored message resolves the error. False when only a new message from the
   * sender can (the stored values themselves are wrong), or only the redrive of a set-aside batch.
   */
  retryHelps: boolean;
}

const ADVICE: Record<ErrorType, ErrorAdvice> = {
  INACTIVE_PORTAL: { whatToDo: 'The portal is disabled. Once an administrator enables it, held changes apply by themselves.', retryHelps: true },
  PORTAL_NOT_SYNC_ENABLED: {
    whatToDo: 'The ecommerce install is not done (or was undone). Install again (v1 installs, or a v2 store); held changes then apply by themselves.',
    retryHelps: true,
  },
  NO_SYNC_SETTINGS: { whatToDo: 'No settings exist yet. Save settings with mappings for this object type; stored messages are re-applied.', retryHelps: true },
  SETTINGS_NOT_ENABLED: { whatToDo: 'The settings are disabled. Enable them; stored messages are re-applied.', retryHelps: true },
  NO_MAPPINGS_DEFINED: { whatToDo: 'No mapping covers any property of this message. Add a mapping for one of its properties, then retry.', retryHelps: true },
  NO_DEFINED_PROPERTIES: { whatToDo: 'No mapping covers any property of this message. Add a mapping for one of its properties, then retry.', retryHelps: true },
  MISSING_REQUIRED_PROPERTY: {
    whatToDo:
      'A required property (contact email, deal stage) is missing or not mapped. Map it if the sender sends it under another name, then retry; otherwise the sender must send it.',
    retryHelps: true,
  },
  NO_PROPERTIES_DEFINED: {
    whatToDo: "A mapping names a CRM property the portal does not have. Create the property in the CRM or fix the mapping's CRM property name, then retry.",
    retryHelps: true,
  },
  INVALID_ASSOCIATION_PROPERTY: {
    whatToDo:
      'A line item names a deal or product that has not synced yet, or more than one of either (the ids are in brackets). A missing one: it applies by itself when that object arrives; check that the sender sends it. More than one: the sender must send one id.',
    retryHelps: false,
  },
  MISSING_ASSOCIATED_OBJECT: {
    whatToDo: 'An associated object has not synced yet. It applies by itself when that object arrives; check that the sender sends it.',
    retryHelps: false,
  },
  INVALID_DEAL_STAGE: {
    whatToDo:
      'The deal stage is not a stage of the ecommerce pipeline. Map the sender property that carries the stage, or have the sender send one of the six stages.',
    retryHelps: true,
  },
  INVALID_EMAIL_ADDRESS: {
    whatToDo:
      'The value mapped to the contact email is not an e-mail address. If the wrong sender property is mapped to email, fix the mapping and retry; otherwise the sender must send a valid address.',
    retryHelps: true,
  },
  ERROR_INVALID_DATE_PROPERTY: {
    whatToDo:
      'A date value could not be used; the details say which and why. A DATETIME mapping takes epoch milliseconds only (the details give the value to send for an ISO date). A STRING mapping passes the text as sent, which the CRM reads as epoch milliseconds or ISO 8601 (2024-05-01 for a day, 2024-05-01T12:30:00Z for a date-time). A CRM date property (a day, no time) takes midnight UTC only: map a date-time property instead, or have the sender send midnight UTC.',
    retryHelps: true,
  },
  INVALID_ENUM_PROPERTY: {
    whatToDo:
      'A value is not one of the options of its CRM property (a yes/no property takes true or false only). Add the option in the CRM or map another property, then retry; or have the sender send the object again with one of the options.',
    retryHelps: true,
  },
  EMPTY_MESSAGE: { whatToDo: 'The message carried no properties. The sender must send the object again with its properties.', retryHelps: false },
  BAD_SETTINGS: { whatToDo: 'The settings in force cannot map this object. Check the mappings of this object type, then retry.', retryHelps: true },
  UNKNOWN_ERROR: {
    whatToDo:
      'The CRM refused the change, or an association of an object it wrote, or the object was too large to send to the CRM; the details give the reason. Fix what they name (too large: shorter values from the sender, or fewer mappings), then retry; if it fails again, the details and the service logs tell more.',
    retryHelps: true,
  },
  CREATE_FAIL_NO_INFO: { whatToDo: 'The CRM refused to create the object without saying why. Retry; if it fails again, check the CRM.', retryHelps: true },
  UPDATE_FAIL_NO_INFO: { whatToDo: 'The CRM refused to update the object without saying why. Retry; if it fails again, check the CRM.', retryHelps: true },
  DELETE_FAIL_NO_INFO: { whatToDo: 'The CRM refused to archive the object without saying why. Retry; if it fails again, check the CRM.', retryHelps: true },
};

/** An error that waits for a batch set aside before it was merged, whatever its type: only that batch's merge resolves it. */
const SET_ASIDE: ErrorAdvice = {
  whatToDo:
    'The batch with this change was set aside (dead-lettered) before it was merged: the error clears when the service’s operators redrive that batch from its dead-letter queue. A retry re-applies what is stored, which does not hold the batch, so it cannot clear this error.',
  retryHelps: false,
};

/** Whether an error still waits for a batch set aside before it was merged (open; a merged batch resolves it). */
export const waitsForSetAside = (error: { status: ErrorStatus; setAsideBatchId?: string | null }): boolean =>
  error.status === 'OPEN' && Boolean(error.setAsideBatchId);

/** What to do about an error of this type (the console shows it beside each error); `setAside`: it waits for a set-aside batch. */
export const errorAdvice = (type: ErrorType, { setAside = false }: { setAside?: boolean } = {}): ErrorAdvice => (setAside ? SET_ASIDE : ADVICE[type]);
