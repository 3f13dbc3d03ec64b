import { describeAlertDestinationRepositoryContract, describeAlertNoticeRepositoryContract } from '../contracts/alert-notice-repository.contract';
import { describeAlertRuleRepositoryContract } from '../contracts/alert-rule-repository.contract';
import { FakeAlertDestinationRepository, FakeAlertNoticeRepository } from './fake-alert-notice.repository';
import { FakeAlertRuleRepository } from './fake-alert-rule.repository';

describeAlertRuleRepositoryContract('FakeAlertRuleRepository', () => new FakeAlertRuleRepository());
describeAlertNoticeRepositoryContract('FakeAlertNoticeRepository', () => new FakeAlertNoticeRepository());
describeAlertDestinationRepositoryContract('FakeAlertDestinationRepository', () => new FakeAlertDestinationRepository());
