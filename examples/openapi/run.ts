/**
 * `npm run example:openapi`: generates rx-rest resources from examples/openapi/petstore-expanded.yaml
 * (the OpenAPI 3 "Petstore expanded" example, Apache 2.0, as shipped by @readme/oas-examples), starts the
 * spec-driven mock server on a free port, and lists, creates and deletes pets through a Controller.
 */
import { join } from 'node:path';
import { Controller } from 'rx-rest';
import { report } from '../../codegen/src/cli.js';
import { generateAgainstMock } from '../../codegen/test/harness.js';

const spec = new URL('./petstore-expanded.yaml', import.meta.url).pathname;
const generated = await generateAgainstMock(spec);
console.log(report(generated.model, generated.result.ms));
console.log(`\ngenerated ${[...generated.result.files.keys()].join(', ')}\nmock server: ${generated.server.url}\n`);
try {
  const api = await import(join(generated.dir, 'index.ts'));
  const controller = new Controller();
  const pets = await controller.fetch(api.PetResource.getList, {});
  console.log(
    'pets:',
    pets.map((pet: { name: string; id: number }) => `${pet.id} ${pet.name}`),
  );
  const added = await controller.fetch(api.PetResource.getList.push, {}, { name: 'Rex', tag: 'dog' });
  console.log('added:', added.id, added.name);
  await controller.fetch(api.PetResource.delete, { id: added.id });
  const left = controller.getResponse(api.PetResource.getList, {}).data as { id: number }[];
  console.log(
    'after the delete, the list holds',
    left.map((pet) => pet.id),
  );
} finally {
  await generated.dispose();
}
