import texts from '../lazy/catalog';
import { addTexts } from '../lazyTexts';

// Imported for its effect by each part that shows these texts: they arrive with it, not with the first page.
addTexts(texts);
