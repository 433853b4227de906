import texts from '../../i18n/lazy/resources';
import { addTexts } from '../../i18n/lazyTexts';

// Imported for its effect by each resource component: their texts arrive with them.
addTexts(texts);
