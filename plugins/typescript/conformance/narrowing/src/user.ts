export class User {
  save(): void {}
}

export class Admin extends User {
  save(): void {}
}

export function isAdmin(u: User): u is Admin {
  return true;
}
