import { AccountEntity } from './account.entity';
import { ApiTokenEntity } from './api-token.entity';
import { FeedbackEntity } from './feedback.entity';
import { PasswordResetEntity } from './password-reset.entity';
import { SessionEntity } from './session.entity';

export { AccountEntity, ApiTokenEntity, FeedbackEntity, PasswordResetEntity, SessionEntity };
export const ENTITIES = [AccountEntity, ApiTokenEntity, FeedbackEntity, PasswordResetEntity, SessionEntity];
