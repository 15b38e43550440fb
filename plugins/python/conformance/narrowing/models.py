from typing import TypeIs


class Request:
    url: str = ""


class Ready(Request):
    url: str = ""


def is_ready(request: Request) -> TypeIs[Ready]:
    return True
