import texts from '../lazy/problemCodes';
import { addTexts } from '../lazyTexts';

// Imported on demand (i18n/hostText.ts useProblemTexts): the problems' texts arrive with the first list of them.
addTexts(texts);
