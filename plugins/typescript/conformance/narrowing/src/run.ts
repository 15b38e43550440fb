import { Admin, User, isAdmin } from "./user";

export function run(u: User, v: User): void {
  u.save();
  if (u instanceof Admin) {
    u.save();
  }
  if (!isAdmin(v)) {
    return;
  }
  v.save();
}
