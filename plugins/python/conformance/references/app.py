import os.path as osp
from .models import User, Group as Team


class Admin(User, base.Mixin):
    level: Team

    def promote(self, user: User) -> "Admin":
        self.level += 1
        user.save(force=True)
        found = lookup(user.name)
        return Admin(found)


@register
def main():
    path = osp.join(os.sep, "x")
    return path
