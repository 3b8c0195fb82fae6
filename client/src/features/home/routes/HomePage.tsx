import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../../../components/Icon.tsx';
import '../home.css';

const features: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'pin',
    title: 'Find Nearby Cats',
    text: 'Use your location to discover the shop cats closest to you, sorted by distance.',
  },
  {
    icon: 'heart',
    title: 'Save Favorites',
    text: 'Keep a list of the cats and bodegas you love so you can visit them again.',
  },
  {
    icon: 'camera',
    title: 'Share Discoveries',
    text: 'Add new cats and bodegas with photos so the whole neighbourhood can meet them.',
  },
  {
    icon: 'star',
    title: 'Rate & Review',
    text: 'Tell others about the friendliest cats and the best corner shops in town.',
  },
];

const shortcuts: { icon: IconName; title: string; text: string; to: string }[] = [
  {
    icon: 'search',
    title: 'Search Cats',
    text: 'Browse by name, breed, personality or place.',
    to: '/search',
  },
  { icon: 'clock', title: 'Recently Viewed', text: 'Pick up where you left off.', to: '/recently-viewed' },
  { icon: 'plus', title: 'Add New Cat', text: 'Met a shop cat? Put it on the map.', to: '/upload' },
];

export default function HomePage() {
  return (
    <div className="home">
      <section className="hero">
        <div className="hero__inner">
          <p className="hero__eyebrow">
            <Icon name="cat" size={18} /> New York City's shop cats
          </p>
          <h1 className="hero__title">Find Bodega Cats in NYC</h1>
          <p className="hero__text">
            Discover the cats that keep watch over the city's bodegas and delis. Find cats by location, breed
            or personality, and explore them on an interactive map.
          </p>
          <div className="hero__actions">
            <Link to="/search" className="button button--primary button--large">
              Start Exploring
            </Link>
            <Link to="/register" className="button button--secondary button--large">
              Join the Community
            </Link>
          </div>
        </div>
      </section>

      <div className="page">
        <section aria-labelledby="features-title" className="home__section">
          <h2 id="features-title" className="home__section-title">
            What you can do
          </h2>
          <ul className="feature-grid">
            {features.map((feature) => (
              <li key={feature.title} className="feature-card">
                <span className="feature-card__icon">
                  <Icon name={feature.icon} size={24} />
                </span>
                <h3 className="feature-card__title">{feature.title}</h3>
                <p className="feature-card__text">{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="shortcuts-title" className="home__section">
          <h2 id="shortcuts-title" className="home__section-title">
            Jump right in
          </h2>
          <ul className="shortcut-grid">
            {shortcuts.map((shortcut) => (
              <li key={shortcut.to}>
                <Link to={shortcut.to} className="shortcut-card">
                  <span className="shortcut-card__icon">
                    <Icon name={shortcut.icon} size={22} />
                  </span>
                  <span>
                    <span className="shortcut-card__title">{shortcut.title}</span>
                    <span className="shortcut-card__text">{shortcut.text}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="about-title" className="home__section about card">
          <h2 id="about-title">About Bodega Cats</h2>
          <p>
            Bodega cats are a beloved part of New York City. They keep the mice away, greet regulars by name
            (well, almost) and turn a quick stop for coffee into the best part of the day. Bodega Cats is a
            community directory of these neighbourhood celebrities and the shops they call home.
          </p>
          <p>
            Search for cats near you, read what other visitors say, and add the cats you meet so everyone can
            find them. Every cat and bodega here was added by someone in the community.
          </p>
        </section>
      </div>
    </div>
  );
}
