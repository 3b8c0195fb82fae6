import type { CatDetail } from '../../../lib/catalogue.ts';

const NOT_GIVEN = 'Not specified';

/** 'About' text and the details grid (Age, Breed, Sex, Color, Weight, Personality, Friendly). */
export function CatAbout({ cat }: { cat: CatDetail }) {
  const details: [string, string][] = [
    ['Age', cat.age],
    ['Breed', cat.breed],
    ['Sex', cat.sex],
    ['Color', cat.color],
    ['Weight', cat.weight],
    ['Personality', cat.personality],
    ['Friendly', cat.is_friendly ? 'Yes' : 'No'],
  ];
  return (
    <section className="card" aria-labelledby="cat-about">
      <h2 id="cat-about" className="section-title">
        About {cat.name}
      </h2>
      {cat.description ? (
        <p className="detail-text">{cat.description}</p>
      ) : (
        <p className="detail-text detail-text--empty">No description yet.</p>
      )}
      <h3 className="section-subtitle">Details</h3>
      <dl className="info-grid">
        {details.map(([label, value]) => (
          <div key={label} className="info-grid__item">
            <dt>{label}</dt>
            <dd>{value || NOT_GIVEN}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
