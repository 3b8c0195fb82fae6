// What the other features use of the reviews: a page's 'Reviews' card.
export { ReviewsSection } from './components/ReviewsSection.tsx';
