import texts from '../lazy/problemCodes';
import { addTexts } from '../lazyTexts';

// Imported on demand (i18n/problemTexts.ts useProblemTexts): the problems' texts arrive with the first code shown.
addTexts(texts);
