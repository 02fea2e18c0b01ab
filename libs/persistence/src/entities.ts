import { AccountEntity } from './accounts/account.entity';
import { ApiTokenEntity } from './tokens/api-token.entity';
import { FeedbackEntity } from './feedback/feedback.entity';
import { PasswordResetEntity } from './accounts/password-reset.entity';
import { SessionEntity } from './sessions/session.entity';

export { AccountEntity, ApiTokenEntity, FeedbackEntity, PasswordResetEntity, SessionEntity };
export const ENTITIES = [AccountEntity, ApiTokenEntity, FeedbackEntity, PasswordResetEntity, SessionEntity];
