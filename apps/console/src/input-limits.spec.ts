import * as contracts from '@ecomm-sync/contracts';
import * as limits from './input-limits';

const rule = contracts.alertRuleInputSchema.properties;
const [openErrors, syncLag, crmConnection] = rule.condition.oneOf;
const [urlDestination, emailDestination] = contracts.alertDestinationInputSchema.oneOf;

describe("the console's input limits", () => {
  it.each([
    ['external ids', limits.MAX_OBJECT_ID_LENGTH, contracts.MAX_OBJECT_ID_LENGTH],
    ["alert rules' names", limits.MAX_ALERT_NAME_LENGTH, rule.name.maxLength],
    ["alert rules' thresholds", limits.MAX_ALERT_THRESHOLD, openErrors.properties.threshold.maximum],
    ['sync lag minutes', limits.MAX_ALERT_MINUTES, syncLag.properties.minutes.maximum],
    ['CRM unreachable minutes', limits.MAX_ALERT_MINUTES, crmConnection.properties.unreachableMinutes.maximum],
    ["destinations' URLs", limits.MAX_ALERT_URL_LENGTH, urlDestination.properties.url.maxLength],
    ["destinations' e-mail addresses", limits.MAX_ALERT_EMAIL_LENGTH, emailDestination.properties.email.maxLength],
    ["destinations' labels", limits.MAX_ALERT_LABEL_LENGTH, urlDestination.properties.label.maxLength],
    ["destinations' labels (e-mail)", limits.MAX_ALERT_LABEL_LENGTH, emailDestination.properties.label.maxLength],
  ])("when the API's limit of %s is read, then the console's forms use the same", (_what, console, api) => {
    expect(console).toBe(api);
  });

  it("when the API's address patterns are read, then the destination form's patterns are the same", () => {
    expect(`^${limits.ALERT_EMAIL_PATTERN}$`).toBe(emailDestination.properties.email.pattern);
    expect(new RegExp(`^${limits.ALERT_URL_PATTERN}$`).test('https://hooks.example.com/x')).toBe(true);
    expect(urlDestination.properties.url.pattern).toBe('^https?://');
  });
});
