// What the cat and bodega features share of their edit screens: the screen that loads the item
// and lets only its creator in, and the form's frame with Save and Delete.
export { ItemEditForm } from './components/ItemEditForm.tsx';
export { ItemEditPage } from './components/ItemEditPage.tsx';
