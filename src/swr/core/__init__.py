"""The ground floor: what every part of swr shares and that depends on no part of it."""
