from models import Ready, Request, is_ready


def send(req: Request, other: Request):
    print(req.url)
    assert is_ready(req)
    print(req.url)
    if isinstance(other, Ready):
        print(other.url)
    print(other.url)
